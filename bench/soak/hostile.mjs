// The hostile mix (issues 34 and 41): soak.mjs --hostile runs this. Normal traffic (POST
// /scrape/web of small local pages on both roads, GET /account) at concurrency C with one key
// for `baseline` seconds alone, then for `hostile` seconds beside the red-team shapes sent with
// another key at a bounded rate (one every `every` ms, at most `inflight` at once): bodies nested
// 50,000 deep, a backtracking includePaths pattern over a site of long paths, a 16 MiB robots.txt,
// a 60 MB sitemap and a gzip bomb, a crawl of an infinite site, a batch of 10,000 URLs, XPath and
// CSS rules that explode over a 20,000-element page, a 50 MB evaluate result, a batch of 10 MB
// pages with html, text and markdown, and exports of that batch (one read whole, one left after
// half a second). Meanwhile /health is asked every second and the service's RSS and the store's
// size sampled every 5 s. At the end every job is DELETEd and followed until it reaches a final
// state. Prints a summary JSON: normal traffic's p50/p99 alone and beside the mix, /health, RSS,
// each shape's answers, the jobs' ends and the store's growth against the rows charged.
import fs from 'node:fs';
import http from 'node:http';

/// One request; resolves to {status, ms, bytes, body?} (status 0: failed or timed out). The body
/// is kept (as text) only when it is under `keep` bytes.
function call(base, key, method, path, body, { timeoutMs = 120000, keep = 1 << 20, hangUpAfterMs = 0 } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const headers = key ? { 'x-api-key': key } : {};
    const payload = body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    let settled = false;
    const done = (r) => { if (!settled) { settled = true; resolve({ ms: Date.now() - t0, ...r }); } };
    const req = http.request({ host: base.hostname, port: base.port, path, method, headers, timeout: timeoutMs }, (res) => {
      let bytes = 0;
      const parts = [];
      res.on('data', (c) => { bytes += c.length; if (bytes <= keep) parts.push(c); });
      res.on('end', () => done({ status: res.statusCode, bytes, body: bytes <= keep ? Buffer.concat(parts).toString('utf8') : undefined }));
      res.on('error', () => done({ status: 0, bytes }));
      res.on('aborted', () => done({ status: 0, bytes }));
    });
    req.on('timeout', () => { req.destroy(new Error('timeout')); done({ status: 0, bytes: 0, timedOut: true }); });
    req.on('error', () => done({ status: 0, bytes: 0 }));
    if (hangUpAfterMs) setTimeout(() => { req.destroy(); done({ status: -1, bytes: 0 }); }, hangUpAfterMs);
    req.end(payload);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1) + 0.5))] : null);
function latency(list) {
  const ok = list.filter((r) => r.status === 200).map((r) => r.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const r of list) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return { n: list.length, ok: ok.length, p50: percentile(ok, 0.5), p99: percentile(ok, 0.99), max: ok.length ? ok[ok.length - 1] : null, statuses };
}
const parse = (text) => { try { return JSON.parse(text); } catch { return null; } };
function storeBytes(db) {
  let total = 0;
  for (const f of [db, `${db}-wal`]) { try { total += fs.statSync(f).size; } catch { /* absent */ } }
  return total;
}

export async function runHostile({ flags, base, sample }) {
  const ports = JSON.parse(fs.readFileSync(flags.origins, 'utf8'));
  const at = (role, path) => `http://127.0.0.1:${ports[role]}${path}`;
  const baselineMs = Number(flags.baseline ?? 120) * 1000;
  const hostileMs = Number(flags.hostile ?? 480) * 1000;
  const every = Number(flags['hostile-every'] ?? 3000);
  const inflightMax = Number(flags.inflight ?? 3);
  const concurrency = Number(flags.c ?? 2);
  const t0 = Date.now();
  const hostileFrom = t0 + baselineMs;
  const endAt = hostileFrom + hostileMs;
  const storeAtStart = storeBytes(flags.db);

  // Samples: RSS (sample() of soak.mjs) and the store's size.
  const samples = [];
  const take = async () => {
    const s = { ...(await sample(0)), storeMb: Math.round(storeBytes(flags.db) / 1e5) / 10, phase: Date.now() < hostileFrom ? 'alone' : 'beside' };
    samples.push(s);
    process.stderr.write(`${JSON.stringify(s)}\n`);
  };
  await take();
  const sampler = setInterval(take, 5000);

  // /health every second, throughout.
  const health = [];
  const healthLoop = (async () => {
    while (Date.now() < endAt) {
      const r = await call(base, null, 'GET', '/health', undefined, { timeoutMs: 5000 });
      health.push({ t: Date.now() - t0, status: r.status, ms: r.ms });
      await sleep(Math.max(0, 1000 - r.ms));
    }
  })();

  // Normal traffic: the same loop alone, then beside the mix.
  const normal = { alone: [], beside: [] };
  let seq = 0;
  const normalLoop = async () => {
    while (Date.now() < endAt) {
      const i = seq++;
      const startedAt = Date.now();
      const phase = startedAt < hostileFrom ? 'alone' : 'beside';
      const url = at('normal', `/p/${i % 500}`);
      let r;
      if (i % 5 === 4) r = await call(base, flags.key, 'GET', '/account');
      else if (i % 2 === 0) r = await call(base, flags.key, 'POST', '/scrape/web', { url, jsRendering: false, outputFormat: ['markdown'] });
      else r = await call(base, flags.key, 'POST', '/scrape/web', { url, outputFormat: ['markdown'] });
      normal[phase].push({ kind: i % 5 === 4 ? 'account' : i % 2 === 0 ? 'plain' : 'browser', status: r.status, ms: r.ms, from: startedAt, to: startedAt + r.ms });
    }
  };
  const normalLoops = Array.from({ length: concurrency }, normalLoop);

  // The mix.
  const key = flags['hostile-key'];
  const jobs = [];  // {id, shape}
  let bigJob = null;
  const deep = (n) => '['.repeat(n) + ']'.repeat(n);
  const job = (shape) => (r) => {
    const id = parse(r.body ?? '')?.id;
    if (id) jobs.push({ id, shape });
    return id;
  };
  const shapes = [
    ['big_pages_batch', () => call(base, key, 'POST', '/scrape/batch/web', { urls: Array.from({ length: 8 }, (_, i) => at('normal', `/big/${i}`)), jsRendering: false, outputFormat: ['html', 'text', 'markdown'] }).then((r) => { const id = job('big_pages_batch')(r); if (id) bigJob = id; return r; })],
    ['deep_body_batch', () => call(base, key, 'POST', '/scrape/batch/web', `{"urls":["${at('normal', '/p/1')}"],"headers":{"x":${deep(50000)}}}`)],
    ['deep_body_crawl', () => call(base, key, 'POST', '/scrapers/crawler/jobs', `{"urls":["${at('normal', '/p/1')}"],"includePaths":${deep(50000)}}`)],
    ['backtracking_pattern', () => call(base, key, 'POST', '/scrapers/crawler/jobs', { urls: [at('normal', '/inf/')], includePaths: ['^/(a+)+$', '^/inf'], limit: 300, jsRendering: false }).then((r) => (job('backtracking_pattern')(r), r))],
    ['huge_robots', () => call(base, key, 'POST', '/scrapers/crawler/jobs', { urls: [at('robots', '/p/1')], limit: 20, jsRendering: false }).then((r) => (job('huge_robots')(r), r))],
    ['huge_sitemap', () => call(base, key, 'POST', '/scrapers/crawler/jobs', { urls: [at('sitemap', '/p/1')], limit: 100, sitemap: 'include', jsRendering: false }).then((r) => (job('huge_sitemap')(r), r))],
    ['infinite_crawl', () => call(base, key, 'POST', '/scrapers/crawler/jobs', { urls: [at('normal', '/inf/')], limit: 100000, maxDepth: 1000, jsRendering: false, outputFormat: ['markdown'] }).then((r) => (job('infinite_crawl')(r), r))],
    ['batch_10000', () => call(base, key, 'POST', '/scrape/batch/web', { urls: Array.from({ length: 10000 }, (_, i) => at('normal', `/b/${i}`)), jsRendering: false, outputFormat: ['markdown'] }).then((r) => (job('batch_10000')(r), r))],
    ['xpath_explosion', () => call(base, key, 'POST', '/scrape/web', { url: at('normal', '/dom'), jsRendering: false, timeout: 20000, extractRules: { x: { selector: '//*/following::*/preceding::*/following::*', type: 'list' } } })],
    ['css_has_explosion', () => call(base, key, 'POST', '/scrape/web', { url: at('normal', '/dom'), timeout: 20000, extractRules: { x: { selector: 'div:has(~ div:has(~ div)) span', type: 'list' } } })],
    ['big_evaluate', () => call(base, key, 'POST', '/scrape/web', { url: at('normal', '/p/2'), timeout: 60000, jsScenario: [{ evaluate: "'x'.repeat(50 * 1024 * 1024)" }] }, { keep: 0 })],
    ['export_whole', () => (bigJob ? call(base, key, 'GET', `/scrapers/jobs/${bigJob}/results?format=ndjson`, undefined, { keep: 0 }) : Promise.resolve({ status: 'no_job_yet', ms: 0 }))],
    ['export_left', () => (bigJob ? call(base, key, 'GET', `/scrapers/jobs/${bigJob}/results?format=csv`, undefined, { keep: 0, hangUpAfterMs: 500 }) : Promise.resolve({ status: 'no_job_yet', ms: 0 }))],
  ];
  // --shapes a,b,...: only those (to find which of them slows normal traffic).
  const only = flags.shapes ? new Set(String(flags.shapes).split(',')) : null;
  const chosen = only ? shapes.filter(([name]) => only.has(name)) : shapes;
  if (!chosen.length) throw new Error(`--shapes names none of: ${shapes.map(([n]) => n).join(', ')}`);
  const hostile = {};
  let inflight = 0;
  const pending = [];
  const hostileLoop = (async () => {
    await sleep(Math.max(0, hostileFrom - Date.now()));
    for (let i = 0; Date.now() < endAt; ++i) {
      if (inflight < inflightMax) {
        const [name, run] = chosen[i % chosen.length];
        ++inflight;
        const from = Date.now();
        pending.push(run().then((r) => {
          --inflight;
          (hostile[name] ??= []).push({ status: r.status, ms: r.ms, bytes: r.bytes, from, to: Date.now() });
        }));
      }
      await sleep(every);
    }
  })();

  await Promise.all([...normalLoops, healthLoop, hostileLoop]);
  await Promise.all(pending);

  // Every job is stopped: DELETE answered, then followed to a final state (at most 180 s).
  const ends = [];
  for (const j of jobs) {
    const r = await call(base, key, 'DELETE', `/scrapers/jobs/${j.id}`, undefined, { timeoutMs: 30000 });
    ends.push({ ...j, deleteStatus: r.status, deleteMs: r.ms, askedAt: Date.now() });
  }
  const finalStates = new Set(['finished', 'stopped', 'failed']);
  const followUntil = Date.now() + 180000;
  for (;;) {
    let open = 0;
    for (const e of ends) {
      if (e.final) continue;
      const r = await call(base, key, 'GET', `/scrapers/jobs/${e.id}`, undefined, { timeoutMs: 10000 });
      const j = parse(r.body ?? '');
      if (j && finalStates.has(j.status)) {
        Object.assign(e, { final: j.status, reason: j.reason, finalAfterMs: Date.now() - e.askedAt, rows: j.dataRowsCount, credits: j.creditsSpent });
      } else {
        ++open;
        e.lastStatus = j?.status;
        e.rows = j?.dataRowsCount;
        e.credits = j?.creditsSpent;
      }
    }
    if (!open || Date.now() > followUntil) break;
    await sleep(2000);
  }
  clearInterval(sampler);
  await take();

  const rss = samples.map((s) => s.rssMb);
  const chargedRows = ends.reduce((a, e) => a + (e.rows ?? 0), 0);
  const storeAtEnd = storeBytes(flags.db);
  const byShape = {};
  for (const [name, list] of Object.entries(hostile)) byShape[name] = latency(list);
  for (const [name, list] of Object.entries(hostile)) {
    byShape[name].statuses = {};
    for (const r of list) byShape[name].statuses[r.status] = (byShape[name].statuses[r.status] ?? 0) + 1;
    byShape[name].maxMs = Math.max(...list.map((r) => r.ms));
  }
  const alone = latency(normal.alone), beside = latency(normal.beside);
  // What was in flight during the slowest normal requests beside the mix (the p99 tail): per
  // shape, the share of those requests it overlapped, against the share of the mix's time it was
  // in flight. A shape that overlaps the tail far more often than it runs is what slows it.
  const tail = normal.beside.filter((r) => r.status === 200).sort((a, b) => b.ms - a.ms).slice(0, Math.max(1, Math.ceil(beside.ok / 100)));
  const mixMs = Math.max(1, endAt - hostileFrom);
  const slowTail = { requests: tail.length, fastestMs: tail.length ? tail[tail.length - 1].ms : null, byShape: {} };
  for (const [name, list] of Object.entries(hostile)) {
    const overlapped = tail.filter((r) => list.some((h) => h.from < r.to && h.to > r.from)).length;
    const inFlightMs = list.reduce((a, h) => a + Math.max(0, Math.min(h.to, endAt) - Math.max(h.from, hostileFrom)), 0);
    slowTail.byShape[name] = { tailShare: Math.round((overlapped / Math.max(1, tail.length)) * 100) / 100, timeShare: Math.round((inFlightMs / mixMs) * 100) / 100 };
  }
  const healthFailed = health.filter((h) => h.status !== 200);
  return {
    seconds: Math.round((Date.now() - t0) / 1000),
    loadAverage: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    normal: { alone, beside, p99Ratio: alone.p99 && beside.p99 ? Math.round((beside.p99 / alone.p99) * 100) / 100 : null,
              byKind: Object.fromEntries(['plain', 'browser', 'account'].map((k) => [k, { alone: latency(normal.alone.filter((r) => r.kind === k)), beside: latency(normal.beside.filter((r) => r.kind === k)) }])) },
    health: { asked: health.length, failed: healthFailed.length, firstFailures: healthFailed.slice(0, 10), maxMs: Math.max(...health.map((h) => h.ms)) },
    rssMb: { first: rss[0], max: Math.max(...rss), last: rss[rss.length - 1], aloneMax: Math.max(...samples.filter((s) => s.phase === 'alone').map((s) => s.rssMb)) },
    hostile: byShape,
    slowTail,
    jobs: { created: ends.length, deleteAnswered: ends.filter((e) => e.deleteStatus === 200).length,
            final: ends.filter((e) => e.final).length,
            notFinal: ends.filter((e) => !e.final).map((e) => ({ id: e.id, shape: e.shape, status: e.lastStatus })),
            ends: ends.map((e) => ({ shape: e.shape, delete: e.deleteStatus, deleteMs: e.deleteMs, final: e.final ?? null, reason: e.reason ?? null, finalAfterMs: e.finalAfterMs ?? null, rows: e.rows ?? 0, credits: e.credits ?? 0 })) },
    store: { startMb: Math.round(storeAtStart / 1e5) / 10, endMb: Math.round(storeAtEnd / 1e5) / 10, chargedRows,
             growthPerChargedRowKb: chargedRows ? Math.round((storeAtEnd - storeAtStart) / chargedRows / 100) / 10 : null },
  };
}
