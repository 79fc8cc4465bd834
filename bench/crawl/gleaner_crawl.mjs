// Runs one gleaner crawl and checks it: POST /scrapers/crawler/jobs from the site's home page,
// polls the job every 50 ms until it ends, samples the service's RSS (VmRSS of --pid, the
// service alone: on the plain road no Chromium works) every 250 ms, then reads the rows
// (results?format=ndjson) and checks that they are exactly the site's expected pages, each
// without an error and with a non-empty markdown. Prints one JSON line.
//   node gleaner_crawl.mjs --base http://127.0.0.1:P --key KEY --pid PID --start URL
//        --expected FILE [--js false] [--concurrency 8] [--samples FILE] [--label name]
// pages/s = rows / (the poll that saw the job end - the POST that created it); the job's own
// createdAt/finishedAt (whole seconds) are printed beside it.
import fs from 'node:fs';

const f = { js: 'false', concurrency: '8', samples: '', label: 'gleaner' };
for (let i = 2; i < process.argv.length; i += 2) f[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const headers = { 'content-type': 'application/json', 'x-api-key': f.key };
const expected = fs.readFileSync(f.expected, 'utf8').split('\n').filter(Boolean);

const rssMb = () => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${f.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch { return NaN; }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const body = {
  urls: [f.start], limit: expected.length + 100, sitemap: 'skip', ignoreRobotsTxt: true,
  maxConcurrency: Number(f.concurrency), jsRendering: f.js === 'true', outputFormat: ['markdown'],
};
// Node's fetch loads its HTTP client on first use: done before the clock starts.
await (await fetch(`${f.base}/scrapers/jobs?limit=1`, { headers })).text();
const rssBefore = rssMb();
const t0 = performance.now();
let res = await fetch(`${f.base}/scrapers/crawler/jobs`, { method: 'POST', headers, body: JSON.stringify(body) });
if (res.status !== 201) throw new Error(`create: HTTP ${res.status} ${await res.text()}`);
const { id } = await res.json();
const samples = [];
let job;
let lastSample = -1e9;
for (;;) {
  job = await (await fetch(`${f.base}/scrapers/jobs/${id}`, { headers })).json();
  const now = performance.now();
  if (now - lastSample >= 250) {
    lastSample = now;
    samples.push({ s: +((now - t0) / 1000).toFixed(2), pagesDone: job.progress?.pagesDone ?? 0,
                   rssMb: +rssMb().toFixed(1) });
  }
  if (!['pending', 'in_progress'].includes(job.status)) break;
  await sleep(50);
}
const seconds = (performance.now() - t0) / 1000;
samples.push({ s: +seconds.toFixed(2), pagesDone: job.progress?.pagesDone ?? 0, rssMb: +rssMb().toFixed(1) });
if (f.samples) fs.writeFileSync(f.samples, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');

res = await fetch(`${f.base}/scrapers/jobs/${id}/results?format=ndjson`, { headers });
const lines = (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
const paths = lines.map((r) => new URL(r.url).pathname);
const got = new Set(paths);
const want = new Set(expected);
const missing = expected.filter((p) => !got.has(p));
const extra = [...got].filter((p) => !want.has(p));
const errors = lines.filter((r) => r.error).map((r) => `${r.url}: ${r.error.code}`);
const noMarkdown = lines.filter((r) => !r.error && !(r.markdown && r.markdown.length > 0)).length;
const rss = samples.map((s) => s.rssMb).filter((x) => !Number.isNaN(x));
const out = {
  label: f.label, pages: lines.length, seconds: +seconds.toFixed(2),
  pagesPerSecond: +(lines.length / seconds).toFixed(1), status: job.status,
  jobSeconds: (Date.parse(job.finishedAt) - Date.parse(job.createdAt)) / 1000,
  concurrency: Number(f.concurrency), jsRendering: body.jsRendering,
  rssMb: { before: +rssBefore.toFixed(1), peak: Math.max(...rss), end: rss[rss.length - 1] },
  ok: job.status === 'finished' && lines.length === expected.length && got.size === lines.length
      && !missing.length && !extra.length && !errors.length && !noMarkdown,
  missing: missing.length, extra: extra.length, duplicates: lines.length - got.size,
  errors: errors.length, noMarkdown,
};
if (errors.length) console.error(`[${f.label}] errors: ${errors.slice(0, 5).join('; ')}`);
if (missing.length) console.error(`[${f.label}] missing: ${missing.slice(0, 5).join(' ')}`);
console.log(JSON.stringify(out));
process.exit(out.ok ? 0 : 1);
