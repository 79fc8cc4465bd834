// Scores main-content extraction on shared/fixtures/main-content (its README gives the metric):
// gleaner's POST /scrape/web with onlyMainContent on both roads, the whole page's text (no
// filter, for reference) and Mozilla's Readability run in the same Chromium on the same pages.
//   node score.mjs --pages <static base URL> --gleaner <http://127.0.0.1:port> --key <api key>
//                  [--only gleaner-browser,gleaner-plain,gleaner-all,readability] [--c 4]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../../../shared/fixtures/main-content/trafilatura/tests');
const flags = {};
for (let i = 2; i < process.argv.length; i += 2) flags[process.argv[i].slice(2)] = process.argv[i + 1];
const only = (flags.only || 'gleaner-browser,gleaner-plain,gleaner-all,readability').split(',');
const concurrency = Number(flags.c || 4);

// The development set: the pages of evaldata.json whose file is here (cache/ first, then eval/).
const evaldata = JSON.parse(fs.readFileSync(path.join(fixtures, 'evaldata.json'), 'utf8'));
const pages = [];
for (const [url, entry] of Object.entries(evaldata)) {
  for (const dir of ['cache', 'eval']) {
    if (fs.existsSync(path.join(fixtures, dir, entry.file))) {
      pages.push({ url, local: `${flags.pages}/${dir}/${encodeURIComponent(entry.file)}`, ...entry });
      break;
    }
  }
}

const norm = (s) => String(s || '').replace(/\s+/g, ' ').trim();

function score(results) {
  let tp = 0, fn = 0, fp = 0, tn = 0, failed = 0;
  for (const { page, text } of results) {
    if (text === null) failed++;
    const t = norm(text);
    for (const w of page.with || []) (text !== null && t.includes(norm(w)) ? tp++ : fn++);
    for (const w of page.without || []) (text !== null && t.includes(norm(w)) ? fp++ : tn++);
  }
  const precision = tp / (tp + fp), recall = tp / (tp + fn), f1 = (2 * tp) / (2 * tp + fp + fn);
  return { pages: results.length, failed, tp, fn, fp, tn, precision, recall, f1 };
}

async function pool(items, worker) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await worker(items[i]);
    }
  }));
  return out;
}

async function gleaner(body) {
  return pool(pages, async (page) => {
    try {
      const r = await fetch(`${flags.gleaner}/scrape/web`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': flags.key },
        body: JSON.stringify({ url: page.local, outputFormat: ['text'], timeout: 30000, blockAds: true, ...body }),
      });
      const j = await r.json();
      if (r.status !== 200) console.error(`${page.file}: ${r.status} ${JSON.stringify(j.error)}`);
      return { page, text: r.status === 200 ? j.text : null };
    } catch (e) {
      console.error(`${page.file}: ${e.message}`);
      return { page, text: null };
    }
  });
}

async function readability() {
  const source = fs.readFileSync(path.join(here, 'node_modules/@mozilla/readability/Readability.js'), 'utf8');
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
           '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
    defaultViewport: { width: 1366, height: 768 },
  });
  try {
    return await pool(pages, async (page) => {
      const tab = await browser.newPage();
      try {
        await tab.goto(page.local, { waitUntil: 'load', timeout: 30000 }).catch(() => {});
        const text = await tab.evaluate(`(() => { ${source}; const a = new Readability(document.cloneNode(true)).parse();
          return a ? a.textContent : ''; })()`);
        return { page, text };
      } catch (e) {
        console.error(`${page.file}: ${e.message}`);
        return { page, text: null };
      } finally {
        await tab.close();
      }
    });
  } finally {
    await browser.close();
  }
}

const rows = [];
const run = async (label, fn) => {
  const started = Date.now();
  const results = await fn();
  rows.push({ label, seconds: (Date.now() - started) / 1000, ...score(results) });
};
if (only.includes('gleaner-browser')) await run('gleaner onlyMainContent (browser)', () => gleaner({ onlyMainContent: true }));
if (only.includes('gleaner-plain')) await run('gleaner onlyMainContent (jsRendering false)', () => gleaner({ onlyMainContent: true, jsRendering: false }));
if (only.includes('gleaner-all')) await run('gleaner whole page text (browser)', () => gleaner({}));
if (only.includes('readability')) await run('Readability 0.6 in Chromium', readability);

console.log(`| contender | pages | failed | precision | recall | F1 | s |`);
console.log(`|---|---|---|---|---|---|---|`);
for (const r of rows) {
  console.log(`| ${r.label} | ${r.pages} | ${r.failed} | ${r.precision.toFixed(3)} | ${r.recall.toFixed(3)} | ${r.f1.toFixed(3)} | ${r.seconds.toFixed(0)} |`);
}
