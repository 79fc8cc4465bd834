// The plain loop: the least a crawler can do over the site, to show what the static server and
// the machine allow. Node's http with keep-alive, C requests in flight, links read from the HTML
// with a regex (href="..."), resolved, fragment dropped, same host only, each URL once; the body
// is kept only as long as its links are read. Prints one JSON line.
//   node plain_loop.mjs --start URL --expected FILE [--concurrency 8]
import fs from 'node:fs';
import http from 'node:http';

const f = { concurrency: '8' };
for (let i = 2; i < process.argv.length; i += 2) f[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const start = new URL(f.start);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(f.concurrency) });
const seen = new Set([start.href]);
const queue = [start.href];
const done = new Set();
let failures = 0;

function get(url) {
  return new Promise((resolve) => {
    http.get(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(res.statusCode === 200 ? Buffer.concat(chunks).toString() : null));
    }).on('error', () => resolve(null));
  });
}

async function worker() {
  for (;;) {
    const url = queue.shift();
    if (url === undefined) {
      if (inFlight === 0) return;
      await new Promise((r) => setTimeout(r, 1));
      continue;
    }
    ++inFlight;
    const html = await get(url);
    --inFlight;
    if (html === null) { ++failures; continue; }
    done.add(new URL(url).pathname);
    for (const m of html.matchAll(/href="([^"]*)"/g)) {
      const u = new URL(m[1], url);
      u.hash = '';
      if (u.host !== start.host || seen.has(u.href) || u.pathname.endsWith('.css')) continue;
      seen.add(u.href);
      queue.push(u.href);
    }
  }
}
let inFlight = 0;
const t0 = performance.now();
await Promise.all(Array.from({ length: Number(f.concurrency) }, worker));
const seconds = (performance.now() - t0) / 1000;
const expected = fs.readFileSync(f.expected, 'utf8').split('\n').filter(Boolean);
const ok = expected.length === done.size && expected.every((p) => done.has(p)) && !failures;
console.log(JSON.stringify({ label: 'plain-loop', pages: done.size, seconds: +seconds.toFixed(2),
  pagesPerSecond: +(done.size / seconds).toFixed(1), concurrency: Number(f.concurrency), ok, failures }));
agent.destroy();
process.exit(ok ? 0 : 1);
