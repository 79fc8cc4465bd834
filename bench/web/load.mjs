// Load generator: N POST /scrape/web requests at concurrency C over a list of page URLs (taken
// round-robin), then prints one JSON line: pages/s, p50, p99, failures, peak PSS of a process
// tree. Usage:
//   node load.mjs --target http://127.0.0.1:P/scrape/web --urls FILE [--n 200] [--c 4]
//                 [--pid PID] [--key KEY] [--screenshot false] [--label name]
// PSS: every 200 ms the tree under --pid (the process and all its descendants, e.g. the service
// and its Chromium processes) is summed from /proc/<pid>/smaps_rollup; the peak is reported.
import fs from 'node:fs';
import http from 'node:http';
import { parseFlags } from './common.mjs';

const f = parseFlags(process.argv.slice(2), {
  n: '200', c: '4', pid: '', key: '', screenshot: 'false', label: 'run', timeout: '60000',
});
if (!f.target || !f.urls) throw new Error('--target and --urls are required');
const urls = fs.readFileSync(f.urls, 'utf8').split('\n').map((s) => s.trim()).filter(Boolean);
const total = Number(f.n);
const concurrency = Number(f.c);
const target = new URL(f.target);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

/// Every pid whose ancestry reaches `root` (root included), read from /proc/<pid>/stat.
function tree(root) {
  const parent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces; fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch { /* the process ended meanwhile */ }
  }
  const out = [];
  for (const pid of parent.keys()) {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p), ++hops) {
      if (p === root) { out.push(pid); break; }
    }
  }
  return out;
}

/// Sum of Pss over the tree under `root`, in kB.
function pssKb(root) {
  let sum = 0;
  for (const pid of tree(root)) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) sum += Number(m[1]);
    } catch { /* ended meanwhile */ }
  }
  return sum;
}

let peakKb = 0;
const sampler = f.pid ? setInterval(() => { peakKb = Math.max(peakKb, pssKb(Number(f.pid))); }, 200)
                      : null;
if (f.pid) peakKb = pssKb(Number(f.pid));

function post(url) {
  const body = JSON.stringify({
    url, outputFormat: ['html', 'markdown', 'text'], extractLinks: true, extractEmails: true,
    screenshot: f.screenshot === 'true',
  });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (f.key) headers['x-api-key'] = f.key;
  return new Promise((resolve) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname,
                               method: 'POST', headers, agent, timeout: Number(f.timeout) }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let ok = res.statusCode === 200;
        let why = `HTTP ${res.statusCode}`;
        if (ok) {
          try {
            const j = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            ok = typeof j.content === 'string' && j.content.length > 0;
            why = 'empty content';
          } catch { ok = false; why = 'bad JSON'; }
        } else {
          why += ' ' + Buffer.concat(chunks).toString('utf8').slice(0, 200);
        }
        resolve(ok ? null : why);
      });
      res.on('error', (e) => resolve(String(e)));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', (e) => resolve(String(e.message)));
    req.end(body);
  });
}

const latencies = [];
const failures = [];
let next = 0;
const start = process.hrtime.bigint();
async function worker() {
  for (;;) {
    const i = next++;
    if (i >= total) return;
    const t0 = process.hrtime.bigint();
    const err = await post(urls[i % urls.length]);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (err) failures.push(`${urls[i % urls.length]}: ${err}`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
if (sampler) { clearInterval(sampler); peakKb = Math.max(peakKb, pssKb(Number(f.pid))); }
agent.destroy();

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
for (const fail of failures.slice(0, 5)) console.error(`[${f.label}] failed: ${fail}`);
console.log(JSON.stringify({
  label: f.label, requests: total, concurrency, seconds: +seconds.toFixed(2),
  pagesPerSecond: +((total - failures.length) / seconds).toFixed(2),
  p50ms: Math.round(pct(0.5)), p99ms: Math.round(pct(0.99)), failures: failures.length,
  peakPssMb: f.pid ? Math.round(peakKb / 1024) : null,
}));
