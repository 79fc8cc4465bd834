// The bare floor of a browser crawl: the least a Puppeteer crawler does over the same Chromium.
// bench/web/common.mjs launchPool: /usr/bin/chromium with the bench flags (headless, no sandbox,
// no GPU, outside names unresolvable) and gleaner's viewport, N warm tabs of the default context.
// Each tab takes the next URL of a breadth-first queue, page.goto(url, {waitUntil: 'load'}), reads
// the links with one page.evaluate (a[href] and area[href] as the browser resolves them), drops
// fragments, keeps this host's, each URL once; nothing else is read or converted, the tabs are
// reused and nothing is blocked. Prints one JSON line and checks the pages against --expected.
//   node floor_crawl.mjs --start URL --expected FILE [--pages 4]
import fs from 'node:fs';
import { launchPool, NAV_TIMEOUT_MS } from '../web/common.mjs';

const f = { pages: '4' };
for (let i = 2; i < process.argv.length; i += 2) f[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const start = new URL(f.start);
const tabs = Number(f.pages);
const { browser, pool } = await launchPool(tabs);
const seen = new Set([start.href]);
const queue = [start.href];
const done = new Set();
const failures = [];
let inFlight = 0;

async function worker() {
  const page = await pool.acquire();
  for (;;) {
    const url = queue.shift();
    if (url === undefined) {
      if (inFlight === 0) break;
      await new Promise((r) => setTimeout(r, 2));
      continue;
    }
    ++inFlight;
    try {
      const res = await page.goto(url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
      if (!res || res.status() !== 200) throw new Error(`HTTP ${res && res.status()}`);
      const links = await page.evaluate(
        () => [...document.querySelectorAll('a[href], area[href]')].map((a) => a.href));
      done.add(new URL(url).pathname);
      for (const link of links) {
        const u = new URL(link);
        u.hash = '';
        if (u.host !== start.host || seen.has(u.href)) continue;
        seen.add(u.href);
        queue.push(u.href);
      }
    } catch (e) {
      failures.push(`${url}: ${e.message}`);
    } finally {
      --inFlight;
    }
  }
  pool.release(page);
}
const t0 = performance.now();
await Promise.all(Array.from({ length: tabs }, worker));
const seconds = (performance.now() - t0) / 1000;
await browser.close();
const expected = fs.readFileSync(f.expected, 'utf8').split('\n').filter(Boolean);
const ok = expected.length === done.size && expected.every((p) => done.has(p)) && !failures.length;
for (const fail of failures.slice(0, 5)) console.error(`[floor] failed: ${fail}`);
console.log(JSON.stringify({ label: 'floor', pages: done.size, seconds: +seconds.toFixed(2),
  pagesPerSecond: +(done.size / seconds).toFixed(2), tabs, ok, failures: failures.length }));
process.exit(ok ? 0 : 1);
