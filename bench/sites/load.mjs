// GET load over a list of paths (taken round-robin): N requests at concurrency C, then one JSON
// line: requests/s, p50, p99, failures. Usage:
//   node load.mjs --base http://127.0.0.1:P --paths FILE [--n 40] [--c 4] [--key KEY] [--label x]
//                 [--pid PID]
// With --pid, the CPU time the process tree under PID (the service or the floor, with their
// Chromium processes) spent during the timed requests, per request and by process kind.
import fs from 'node:fs';
import http from 'node:http';
import { parseFlags } from '../web/common.mjs';
import { CpuMeter } from '../web/proc.mjs';

const f = parseFlags(process.argv.slice(2), { n: '40', c: '4', key: '', label: 'run', timeout: '60000', pid: '' });
const paths = fs.readFileSync(f.paths, 'utf8').split('\n').map((s) => s.trim()).filter(Boolean);
const base = new URL(f.base);
const total = Number(f.n);
const concurrency = Number(f.c);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function get(p) {
  const headers = f.key ? { 'x-api-key': f.key } : {};
  return new Promise((resolve) => {
    const req = http.request({ host: base.hostname, port: base.port, path: p, method: 'GET',
                               headers, agent, timeout: Number(f.timeout) }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(res.statusCode === 200 ? null
          : `HTTP ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`));
      res.on('error', (e) => resolve(String(e)));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', (e) => resolve(String(e.message)));
    req.end();
  });
}

const cpu = f.pid ? new CpuMeter(Number(f.pid)) : null;
const sampler = cpu ? setInterval(() => cpu.sample(), 100) : null;
cpu?.start();
const latencies = [];
const failures = [];
let next = 0;
const start = process.hrtime.bigint();
await Promise.all(Array.from({ length: concurrency }, async () => {
  for (;;) {
    const i = next++;
    if (i >= total) return;
    const t0 = process.hrtime.bigint();
    const err = await get(paths[i % paths.length]);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (err) failures.push(`${paths[i % paths.length]}: ${err}`);
  }
}));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
if (cpu) { cpu.sample(); clearInterval(sampler); }
agent.destroy();
latencies.sort((a, b) => a - b);
const pct = (q) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)];
for (const fail of failures.slice(0, 3)) console.error(`[${f.label}] failed: ${fail}`);
console.log(JSON.stringify({
  label: f.label, requests: total, seconds: +seconds.toFixed(2),
  perSecond: +((total - failures.length) / seconds).toFixed(2),
  p50ms: Math.round(pct(0.5)), p99ms: Math.round(pct(0.99)), failures: failures.length,
  ...(cpu ? { cpuMsPerRequest: cpu.msBy(total) } : {}),
}));
