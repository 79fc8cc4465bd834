// What isolating each request costs Chromium: loads one page N times, one load at a time, in three
// ways, and prints the CPU the browser's processes spent per load, by kind:
//   context  a new browser context and page per load, disposed after it (what gleaner does for
//            every request: nothing of one request is seen by the next)
//   page     a new page per load in one shared context (cookies and caches shared)
//   reuse    one page for every load (what the Puppeteer service and the floor do)
// Usage: node context_cost.mjs --url URL [--n 40]
// The same Chromium and flags as the other contenders (common.mjs).
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, NAV_TIMEOUT_MS, parseFlags } from './common.mjs';
import { CpuMeter } from './proc.mjs';

const f = parseFlags(process.argv.slice(2), { n: '40' });
if (!f.url) throw new Error('--url is required');
const n = Number(f.n);

async function measure(mode) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: CHROMIUM_ARGS, defaultViewport: { width: 1366, height: 768 },
  });
  const reused = await browser.newPage();
  await reused.goto(f.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });  // warm, untimed
  const cpu = new CpuMeter(browser.process().pid);
  cpu.start();
  const sampler = setInterval(() => cpu.sample(), 100);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; ++i) {
    if (mode === 'reuse') {
      await reused.goto(f.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
      continue;
    }
    const context = mode === 'context' ? await browser.createBrowserContext() : null;
    const page = await (context || browser).newPage();
    await page.goto(f.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
    await (context ? context.close() : page.close());
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  clearInterval(sampler);
  cpu.sample();
  await browser.close();
  const byKind = cpu.msBy(n);
  return { mode, loads: n, msPerLoad: Math.round(ms / n),
           cpuMsPerLoad: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
}

for (const mode of ['context', 'page', 'reuse']) console.log(JSON.stringify(await measure(mode)));
