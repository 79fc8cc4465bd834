// The long run (issue 23 item 6): N mixed requests at concurrency C against one gleaner, sampling
// what a slow leak would show: the service's RSS (anonymous and file pages apart), threads and
// open descriptors, its heap (live allocations and what the allocator holds, from /metrics), and
// the Chromium processes under it (count and PSS). Prints one JSON line per sample on stderr as
// it goes and a summary JSON on stdout at the end. Usage:
//   node soak.mjs --base http://127.0.0.1:P --key KEY --pid PID --requests FILE
//                 [--n 20000] [--c 8] [--every 5000] [--samples FILE]
// FILE (from run.sh): {"site": [GET paths], "siteLight": [those whose documents are small],
// "pages": [URLs the archive serves], "pagesLight": [the small ones]}.
// The mix, by request number: site endpoints, POST /scrape/web (markdown, links, some with a
// screenshot), failures (a page the archive lacks, bad parameters, an unknown route, a wrong key),
// clients that hang up mid-request, /health and /account. One site request and one page fetch in
// every 20 go through every case and page in turn (the 1 MB pages among them); the others use
// the small documents.
// With --hostile SECONDS, the hostile mix instead (hostile.mjs; run.sh --hostile starts its local
// origins): --baseline S of normal traffic alone, then SECONDS beside the red-team shapes,
//   node soak.mjs --base URL --key KEY --hostile-key KEY2 --pid PID --origins FILE --db FILE
//                 --hostile 480 [--baseline 120] [--c 2] [--hostile-every 3000] [--inflight 3]
import fs from 'node:fs';
import http from 'node:http';
import { tree, pssKb } from '../web/proc.mjs';

const flags = { n: '20000', c: '8', every: '5000', samples: '' };
for (let i = 2; i + 1 < process.argv.length; i += 2) flags[process.argv[i].slice(2)] = process.argv[i + 1];
const base = new URL(flags.base);
const pid = Number(flags.pid);
const total = Number(flags.n);
const concurrency = Number(flags.c);
const { site, siteLight, pages, pagesLight } = flags.requests ? JSON.parse(fs.readFileSync(flags.requests, 'utf8')) : {};
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

/// One request; resolves to {kind, status} (status 0: the client hung up or the socket failed).
function send(kind, method, path, body, { key = flags.key, hangUpAfterMs = 0 } = {}) {
  return new Promise((resolve) => {
    const headers = { 'x-api-key': key };
    if (body) headers['content-type'] = 'application/json';
    const req = http.request({ host: base.hostname, port: base.port, path, method, headers,
                               agent: hangUpAfterMs ? undefined : agent, timeout: 180000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind, status: res.statusCode }));
      res.on('error', () => resolve({ kind, status: 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', () => resolve({ kind, status: 0 }));
    if (hangUpAfterMs) setTimeout(() => req.destroy(), hangUpAfterMs);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const pick = (list, i) => list[i % list.length];

/// Request i of the mix (20 slots, so every kind recurs evenly through the run).
function request(i) {
  const slot = i % 20;
  const round = Math.floor(i / 20);
  const page = pick(pagesLight, i);
  if (slot === 0) return send('site', 'GET', pick(site, round));
  if (slot < 7) return send('site', 'GET', pick(siteLight, i));
  if (slot === 7) return send('web', 'POST', '/scrape/web', { url: pick(pages, round), outputFormat: ['markdown'], extractLinks: true });
  if (slot < 11) return send('web', 'POST', '/scrape/web', { url: page, outputFormat: ['markdown'], extractLinks: true });
  if (slot < 12) return send('screenshot', 'POST', '/scrape/web', { url: page, screenshot: true });
  if (slot === 12) return send('missing_page', 'POST', '/scrape/web', { url: `${page}${page.includes('?') ? '&' : '?'}soak=${i}` });
  if (slot === 13) return send('bad_param', 'POST', '/scrape/web', { url: 'ftp://example.com/' });
  if (slot === 14) return send('bad_key', 'GET', pick(site, i), null, { key: 'not-a-key' });
  if (slot === 15) return send('no_route', 'GET', `/no/such/route/${i}`);
  if (slot === 16) return send('hang_up', 'GET', pick(siteLight, i + 1), null, { hangUpAfterMs: 150 });
  if (slot === 17) return send('hang_up', 'POST', '/scrape/web', { url: page }, { hangUpAfterMs: 300 });
  if (slot === 18) return send('health', 'GET', '/health');
  return send('account', 'GET', '/account');
}

/// The service's heap gauges from GET /metrics, in MB: {heapMb, heapHeldMb}.
function heap() {
  return new Promise((resolve) => {
    const req = http.get({ host: base.hostname, port: base.port, path: '/metrics', timeout: 10000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        const gauge = (name) => {
          const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
          return m ? Math.round(Number(m[1]) / 1024 / 102.4) / 10 : null;
        };
        resolve({ heapMb: gauge('gleaner_heap_allocated_bytes'), heapHeldMb: gauge('gleaner_heap_held_bytes') });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ heapMb: null, heapHeldMb: null }));
  });
}

async function sample(done) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)[1]);
  const chromium = tree(pid).filter((p) => p !== pid);
  let chromiumPssKb = 0;
  try { chromiumPssKb = pssKb(pid) - Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))[1]); } catch { /* ended */ }
  return {
    t: Math.round((Date.now() - started) / 1000),
    done,
    rssMb: Math.round(field('VmRSS') / 1024),
    // The resident set in two parts: anonymous memory (heap, stacks) and file pages (the binary's
    // code and data, faulted in as code paths first run: bounded by the binary's size).
    rssAnonMb: Math.round(field('RssAnon') / 1024),
    rssFileMb: Math.round(field('RssFile') / 1024),
    threads: field('Threads'),
    fds: fs.readdirSync(`/proc/${pid}/fd`).length,
    chromium: chromium.length,
    chromiumPssMb: Math.round(chromiumPssKb / 1024),
    ...(await heap()),
  };
}

const started = Date.now();
if (flags.hostile) {
  const { runHostile } = await import('./hostile.mjs');
  console.log(JSON.stringify(await runHostile({ flags, base, sample }), null, 1));
  process.exit(0);
}
const samples = [];
const out = flags.samples ? fs.createWriteStream(flags.samples) : null;
let done = 0;
const take = async () => {
  const s = await sample(done);
  samples.push(s);
  const line = JSON.stringify(s);
  process.stderr.write(`${line}\n`);
  if (out) out.write(`${line}\n`);
};
await take();
const timer = setInterval(take, Number(flags.every));

const byKind = {};
let next = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  for (;;) {
    const i = next++;
    if (i >= total) return;
    const r = await request(i);
    const k = (byKind[r.kind] ??= {});
    k[r.status] = (k[r.status] ?? 0) + 1;
    ++done;
  }
}));
clearInterval(timer);
// Idle for a while: what a leak keeps shows after the load, when everything should be released.
await new Promise((r) => setTimeout(r, 30000));
await take();

/// Least-squares slope of `key` per hour over samples `from`..end.
function slopePerHour(list, key) {
  const n = list.length;
  if (n < 2) return 0;
  const xs = list.map((s) => s.t / 3600), ys = list.map((s) => s[key]);
  const mx = xs.reduce((a, b) => a + b) / n, my = ys.reduce((a, b) => a + b) / n;
  let num = 0, den = 0;
  for (let i = 0; i < n; ++i) { num += (xs[i] - mx) * (ys[i] - my); den += (xs[i] - mx) ** 2; }
  return den ? num / den : 0;
}
const second = samples.slice(Math.floor(samples.length / 2), samples.length - 1);  // under load
const stats = (key) => ({
  first: samples[0][key],
  min: Math.min(...samples.map((s) => s[key])),
  max: Math.max(...samples.map((s) => s[key])),
  secondHalfMin: Math.min(...second.map((s) => s[key])),
  secondHalfMax: Math.max(...second.map((s) => s[key])),
  secondHalfSlopePerHour: Math.round(slopePerHour(second, key) * 10) / 10,
  afterIdle: samples[samples.length - 1][key],
});
console.log(JSON.stringify({
  requests: done, concurrency, seconds: Math.round((Date.now() - started) / 1000), byKind,
  rssMb: stats('rssMb'), rssAnonMb: stats('rssAnonMb'), rssFileMb: stats('rssFileMb'), threads: stats('threads'), fds: stats('fds'), chromium: stats('chromium'),
  chromiumPssMb: stats('chromiumPssMb'), heapMb: stats('heapMb'), heapHeldMb: stats('heapHeldMb'),
}, null, 1));
