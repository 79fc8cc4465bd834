// Where gleaner's requests spent their time, by phase: joins load.mjs's per-request records
// (--requests) with gleaner's debug log (GLEANER_LOG_LEVEL=debug) and prints, for each request
// (slowest first), its page, total time and phases, then each phase's p50 and p99 across requests.
// Usage:
//   node phases.mjs --requests FILE [--log FILE] [--from BYTE] [--label name]
// --from: the log's size before the timed load began, so the warm-up pass is left out.
// Without --log (the Puppeteer peers), the phases are those the peer put in its answers
// (benchPhases: lease, navigation, snapshot, screenshot), recorded by load.mjs.
//
// The log lines it reads (one of each per successful screenshot request):
//   web   <url>: lease (warm page) 0 ms, navigation 310 ms, snapshot 40 ms, conversion 12 ms,
//         screenshot 1484 ms                                     (extract/web/fetch.cpp)
//   screenshots  full page <id> 1366x10881 px png 1580000 bytes: prepare 323 ms (in page 318 ms,
//         20 scroll steps, lazy markup, 0 images still loading), metrics 2 ms, capture 900 ms
//         (1 tiles), stitch 0 ms, write 9 ms                      (screenshots/serve.cpp)
//   http  <request id> POST /scrape/web 200 6438ms                 (api/server.cpp)
// A screenshot line is joined to its request by the screenshot id of the answer, an http line by
// its request id (X-Request-Id), a web line by its URL, in order (the k-th line of a URL is the
// k-th successful request of that URL to end).
// "server" is the http line's time minus the web line's phases: parsing and validating the
// request, the credit hold and its commit, shaping and writing the JSON answer. "client" is what
// the client waited beyond the http line: the socket, reading and parsing the answer (the page's
// HTML, markdown and text), and the event loop of the load generator.
import fs from 'node:fs';
import { parseFlags } from './common.mjs';

const f = parseFlags(process.argv.slice(2), { from: '0', label: 'gleaner' });
if (!f.requests) throw new Error('--requests is required');
const records = fs.readFileSync(f.requests, 'utf8').split('\n').filter(Boolean).map(JSON.parse);
const log = f.log ? fs.readFileSync(f.log).subarray(Number(f.from)).toString('utf8').split('\n') : [];

const webLines = new Map();  // url -> [phases, ...] in log order
const shotLines = new Map(); // id -> phases
const httpLines = new Map(); // request id -> ms
for (const line of log) {
  const h = /\sINFO\s+http\s+(\S+) POST \S+ \d+ (\d+)ms$/.exec(line);
  if (h) {
    httpLines.set(h[1], Number(h[2]));
    continue;
  }
  let m = /\sDEBUG\s+web\s+(\S+): (.*)$/.exec(line);
  if (m) {
    const phases = {};
    for (const part of m[2].split(', ')) {
      const p = /^(.*?)(?: \(.*\))? (\d+) ms$/.exec(part);
      if (p) phases[p[1]] = Number(p[2]);
    }
    if (!webLines.has(m[1])) webLines.set(m[1], []);
    webLines.get(m[1]).push(phases);
    continue;
  }
  m = /\sDEBUG\s+screenshots\s+full page (\w+) (\d+)x(\d+) px (\w+) (\d+) bytes: prepare (\d+) ms \(in page (\d+) ms, (\d+) scroll steps, lazy (\w+), (\d+) images still loading\), metrics (\d+) ms, capture (\d+) ms \((\d+) tiles\), stitch (\d+) ms, write (\d+) ms/.exec(line);
  if (m) {
    shotLines.set(m[1], {
      height: Number(m[3]), mb: Number(m[5]) / 1e6, prepare: Number(m[6]), inPage: Number(m[7]),
      steps: Number(m[8]), lazy: m[9], metrics: Number(m[11]), capture: Number(m[12]),
      tiles: Number(m[13]), stitch: Number(m[14]), write: Number(m[15]),
    });
  }
}

const seen = new Map();
const rows = [];
for (const r of records) {
  if (!r.ok) {
    rows.push({ page: r.url, total: r.ms, failed: r.error });
    continue;
  }
  const k = seen.get(r.url) || 0;
  seen.set(r.url, k + 1);
  const web = (f.log ? (webLines.get(r.url) || [])[k] : r.phases) || {};
  const shot = (r.shot && shotLines.get(r.shot)) || {};
  const webSum = Object.values(web).reduce((a, b) => a + b, 0);
  rows.push({
    page: r.url, total: r.ms, startMs: r.startMs, lease: web.lease, navigation: web.navigation,
    snapshot: (web.snapshot ?? 0) + (web.conversion ?? 0), screenshot: web.screenshot,
    server: Object.keys(web).length && httpLines.has(r.id) ? httpLines.get(r.id) - webSum : undefined,
    client: httpLines.has(r.id) ? r.ms - httpLines.get(r.id)
                                : (f.log || !r.phases ? undefined : r.ms - webSum),
    ...shot,
  });
}

const cols = [
  ['total', 'total'], ['lease', 'lease'], ['navigation', 'nav'], ['snapshot', 'snap+conv'],
  ['screenshot', 'screenshot'], ['prepare', 'prepare'], ['inPage', 'in page'],
  ['steps', 'steps'], ['metrics', 'metrics'], ['capture', 'capture'], ['tiles', 'tiles'],
  ['stitch', 'stitch'], ['write', 'write'], ['server', 'server'], ['client', 'client'],
  ['height', 'height px'],
];
const pad = (s, w) => String(s ?? '-').padStart(w);
const page = (url) => url.replace(/^https?:\/\/[^/]+\//, '').replace(/\.html$/, '');
const width = Math.max(4, ...rows.map((r) => page(r.page).length));
console.log(`${f.label}: ${rows.length} requests, slowest first (ms; "in page" is prepare.js's own ` +
            'clock, steps its scroll steps; server and client: see phases.mjs)');
console.log(['page'.padEnd(width), ...cols.map(([, h]) => pad(h, Math.max(6, h.length)))].join(' '));
for (const r of [...rows].sort((a, b) => b.total - a.total)) {
  if (r.failed) {
    console.log(`${page(r.page).padEnd(width)} ${pad(r.total, 6)} failed: ${r.failed.slice(0, 80)}`);
    continue;
  }
  console.log([page(r.page).padEnd(width),
               ...cols.map(([k, h]) => pad(r[k], Math.max(6, h.length)))].join(' '));
}
// The same percentile as load.mjs: the value at rank ceil(p * n).
const pct = (values, p) => values[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)];
for (const p of [0.5, 0.99]) {
  const line = cols.filter(([k]) => !['steps', 'tiles', 'height'].includes(k)).map(([k, h]) => {
    const values = rows.map((r) => r[k]).filter((v) => typeof v === 'number').sort((a, b) => a - b);
    return `${h} ${values.length ? pct(values, p) : '-'}`;
  });
  console.log(`${f.label} p${Math.round(p * 100)} by phase (ms, each phase on its own): ${line.join(', ')}`);
}

// Each page's median, for comparing contenders page by page.
console.log(`${f.label} by page (median ms of its requests): total / navigation / screenshot`);
const median = (values) => {
  const v = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : '-';
};
const pages = [...new Set(rows.map((r) => r.page))];
for (const url of pages.sort()) {
  const mine = rows.filter((r) => r.page === url && !r.failed);
  if (!mine.length) {
    console.log(`  ${page(url).padEnd(width)} failed`);
    continue;
  }
  console.log(`  ${page(url).padEnd(width)} ${pad(median(mine.map((r) => r.total)), 6)} ` +
              `${pad(median(mine.map((r) => r.navigation)), 6)} ${pad(median(mine.map((r) => r.screenshot)), 6)}`);
}
