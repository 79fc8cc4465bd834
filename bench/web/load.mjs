// Load generator: N POST /scrape/web requests at concurrency C over a list of page URLs (taken
// round-robin), then prints one JSON line: pages/s, p50, p99, failures, peak PSS of a process
// tree. Usage:
//   node load.mjs --target http://127.0.0.1:P/scrape/web --urls FILE [--n 200] [--c 4]
//                 [--pid PID] [--key KEY] [--screenshot false] [--label name] [--requests FILE]
//                 [--extra JSON]
// --extra JSON: fields added to every request's body (e.g. '{"jsRendering": false}').
// --sessions K: worker w runs every request in session "bench-<w mod K>" (sessionId and the
// X-Session-Id header, docs/sessions.md), so at concurrency C = K each worker has its own.
// --requests FILE: one JSON line per request, in the order they ended: {url, startMs (since the
// run's start), ms, ok, error, shot (the screenshot id of the answer, if any), id (its
// X-Request-Id), phases (the Puppeteer peer's own: lease, navigation, snapshot, screenshot)};
// phases.mjs joins them with gleaner's debug log.
// PSS: every 200 ms the tree under --pid (the process and all its descendants, e.g. the service
// and its Chromium processes) is summed from /proc/<pid>/smaps_rollup; the peak is reported.
// CPU: the same samples keep each process's CPU time (/proc/<pid>/stat), so a process that ends
// during the run (a renderer of a disposed context) still counts up to its last sample; reported
// as milliseconds per request by kind (the service itself, Chromium's browser, renderer, gpu and
// utility processes). A process living less than one sample interval is missed.
import fs from 'node:fs';
import http from 'node:http';
import { parseFlags } from './common.mjs';
import { CpuMeter, pssKb } from './proc.mjs';

const f = parseFlags(process.argv.slice(2), {
  n: '200', c: '4', pid: '', key: '', screenshot: 'false', label: 'run', timeout: '60000',
  requests: '', extra: '{}', sessions: '0',
});
const sessions = Number(f.sessions);
const extra = JSON.parse(f.extra);
if (!f.target || !f.urls) throw new Error('--target and --urls are required');
const urls = fs.readFileSync(f.urls, 'utf8').split('\n').map((s) => s.trim()).filter(Boolean);
const total = Number(f.n);
const concurrency = Number(f.c);
const target = new URL(f.target);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

let peakKb = 0;
const cpu = f.pid ? new CpuMeter(Number(f.pid)) : null;
const sampler = f.pid ? setInterval(() => {
  peakKb = Math.max(peakKb, pssKb(Number(f.pid)));
  cpu.sample();
}, 200) : null;
if (f.pid) {
  peakKb = pssKb(Number(f.pid));
  cpu.start();  // the baseline: what the tree spent before the run is left out
}

function post(url, session) {
  const body = JSON.stringify({
    url, outputFormat: ['html', 'markdown', 'text'], extractLinks: true, extractEmails: true,
    screenshot: f.screenshot === 'true', ...extra, ...(session ? { sessionId: session } : {}),
  });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (f.key) headers['x-api-key'] = f.key;
  if (session) headers['x-session-id'] = session;
  return new Promise((resolve) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname,
                               method: 'POST', headers, agent, timeout: Number(f.timeout) }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let ok = res.statusCode === 200;
        let why = `HTTP ${res.statusCode}`;
        let shot = null;
        let phases = null;
        if (ok) {
          try {
            const j = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            ok = typeof j.content === 'string' && j.content.length > 0;
            why = 'empty content';
            const found = /\/screenshots\/([0-9a-f]+)\./.exec(String(j.screenshot || ''));
            if (found) shot = found[1];
            if (j.benchPhases) phases = j.benchPhases;
          } catch { ok = false; why = 'bad JSON'; }
        } else {
          why += ' ' + Buffer.concat(chunks).toString('utf8').slice(0, 200);
        }
        resolve({ error: ok ? null : why, shot, id: res.headers['x-request-id'] || null, phases });
      });
      res.on('error', (e) => resolve({ error: String(e), shot: null, id: null }));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', (e) => resolve({ error: String(e.message), shot: null, id: null }));
    req.end(body);
  });
}

const latencies = [];
const failures = [];
const records = [];
let next = 0;
const start = process.hrtime.bigint();
async function worker(_, w) {
  const session = sessions > 0 ? `bench-${w % sessions}` : null;
  for (;;) {
    const i = next++;
    if (i >= total) return;
    const t0 = process.hrtime.bigint();
    const { error: err, shot, id, phases } = await post(urls[i % urls.length], session);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    latencies.push(ms);
    if (err) failures.push(`${urls[i % urls.length]}: ${err}`);
    records.push({ url: urls[i % urls.length], startMs: Math.round(Number(t0 - start) / 1e6),
                   ms: Math.round(ms), ok: !err, error: err, shot, id, phases });
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
if (sampler) {
  clearInterval(sampler);
  peakKb = Math.max(peakKb, pssKb(Number(f.pid)));
  cpu.sample();
}
agent.destroy();
if (f.requests) fs.writeFileSync(f.requests, records.map((r) => JSON.stringify(r)).join('\n') + '\n');

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
for (const fail of failures.slice(0, 5)) console.error(`[${f.label}] failed: ${fail}`);
console.log(JSON.stringify({
  label: f.label, requests: total, concurrency, seconds: +seconds.toFixed(2),
  pagesPerSecond: +((total - failures.length) / seconds).toFixed(2),
  p50ms: Math.round(pct(0.5)), p99ms: Math.round(pct(0.99)), failures: failures.length,
  peakPssMb: f.pid ? Math.round(peakKb / 1024) : null,
  cpuMsPerRequest: cpu ? cpu.msBy(total) : null,
  // The p99 of a short run is its slowest request or two: which pages they were.
  slowest: [...records].sort((a, b) => b.ms - a.ms).slice(0, 3)
    .map((r) => `${r.url.replace(/^https?:\/\/[^/]+\//, '').replace(/\.html$/, '')} ${r.ms}${r.ok ? '' : ' failed'}`),
}));
