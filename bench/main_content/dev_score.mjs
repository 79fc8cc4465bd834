// onlyMainContent scored without a service: each page is loaded in Chromium under its own URL,
// the browser road's in-page code runs as extract/web/outputs.cpp composes it (main_content.js
// choosing the parts, snapshot.js building the tree) and main_content_text (this folder, C++)
// turns the tree into `text`; the plain road's C++ runs on the saved file; Mozilla's Readability
// runs in the same tab on a clone of the same document. Two sets, each with its own metric:
//   trafilatura  shared/fixtures/main-content (its README): must-have / must-not-have snippets,
//                precision, recall and F1 summed over the snippets of every page
//   scrapinghub  data/scrapinghub (its README): the article body by hand, F1 of 4-word shingles,
//                precision and recall averaged over pages as its evaluate.py does; split in two
//                (--split dev: ids starting 0-7, held-out: 8-f, all)
//   node dev_score.mjs [--set trafilatura|scrapinghub] [--split dev|held-out|all]
//                      [--tool <repo>/build/bench/main_content/main_content_text]
//                      [--only substring] [--show true] [--dump <dir>] [--c 2]
//                      [--main-content <an older main_content.js, for the browser road>]
//   (--show: on trafilatura each page's missed and unwanted snippets; --dump: every contender's
//   text of every page into <dir>/<page>.<contender>.txt)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const flags = {};
for (let i = 2; i < process.argv.length; i += 2) flags[process.argv[i].slice(2)] = process.argv[i + 1];
const toolPath = flags.tool || path.join(repo, 'build/bench/main_content/main_content_text');
const set = flags.set || 'trafilatura';
const split = flags.split || 'all';
const concurrency = Number(flags.c || 2);

// Every page: {name, file (on disk, decompressed), path (served), ...what its metric needs}.
const pages = [];
let root;
if (set === 'trafilatura') {
  // shared/ beside the repository (a work tree one level further down: beside its parent).
  root = ['..', '../..'].map((up) => path.resolve(repo, up, 'shared/fixtures/main-content/trafilatura/tests'))
      .find((dir) => fs.existsSync(dir));
  const evaldata = JSON.parse(fs.readFileSync(path.join(root, 'evaldata.json'), 'utf8'));
  for (const [url, entry] of Object.entries(evaldata)) {
    for (const dir of ['cache', 'eval']) {
      if (fs.existsSync(path.join(root, dir, entry.file))) {
        pages.push({ ...entry, name: entry.file, path: `/${dir}/${entry.file}`, url: /^https?:\/\//.test(url) ? url : undefined });
        break;
      }
    }
  }
} else if (set === 'scrapinghub') {
  const data = path.join(here, 'data/scrapinghub');
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-scrapinghub-'));
  const truth = JSON.parse(fs.readFileSync(path.join(data, 'ground-truth.json'), 'utf8'));
  for (const [id, entry] of Object.entries(truth).sort()) {
    const heldOut = id[0] >= '8';
    if ((split === 'dev' && heldOut) || (split === 'held-out' && !heldOut)) continue;
    fs.writeFileSync(path.join(root, `${id}.html`), zlib.gunzipSync(fs.readFileSync(path.join(data, 'html', `${id}.html.gz`))));
    // Its files are UTF-8 (its evaluate.py reads them so), as the sites' headers said.
    pages.push({ name: id, path: `/${id}.html`, url: entry.url, truth: entry.articleBody || '',
                 contentType: 'text/html; charset=utf-8' });
  }
} else {
  throw new Error(`unknown set ${set}`);
}

// Each page is served under its own URL, as a replay archive would: the saved file as it is,
// without a charset in Content-Type unless the set says one (trafilatura's files carry none). Scripts that send the tab elsewhere
// (a redirect to the canonical host, a consent page) get 204 No Content, which leaves the page in
// place, and every other request fails, as outside names do in the service's tests.
const serve = async (tab, page) => {
  const body = fs.readFileSync(path.join(root, page.path));
  const url = page.url || `http://127.0.0.1/${encodeURIComponent(page.name)}`;
  let served = false;
  await tab.setRequestInterception(true);
  tab.on('request', (req) => {
    if (req.isInterceptResolutionHandled()) return;
    if (req.isNavigationRequest() && req.frame() === tab.mainFrame()) {
      if (!served) {
        served = true;
        return req.respond({ status: 200, contentType: page.contentType || 'text/html', body });
      }
      return req.respond({ status: 204, body: '' });
    }
    return req.abort();
  });
  await tab.goto(url, { waitUntil: 'load', timeout: 20000 }).catch(() => {});
};

const tool = spawn(toolPath, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = [];
readline.createInterface({ input: tool.stdout }).on('line', (l) => answers.shift()(JSON.parse(l)));
const ask = (line) => new Promise((resolve) => {
  answers.push(resolve);
  tool.stdin.write(line.replace(/\n/g, ' ') + '\n');
});

const script = (name) => fs.readFileSync(path.join(repo, name), 'utf8');
// --main-content <file>: another main_content.js for the browser road (an older one, to compare).
const mainContent = flags['main-content'] ? fs.readFileSync(flags['main-content'], 'utf8')
                                          : script('extract/content/main_content.js');
const snapshot = script('extract/content/snapshot.js');
const readability = fs.readFileSync(path.join(here, 'node_modules/@mozilla/readability/Readability.js'), 'utf8');
const opts = { html: false, text: true, tree: true, links: false, meta: false, maxChars: 20000000,
               asString: true, dataImages: false };
const expression = `(() => { const opts = ${JSON.stringify(opts)};
  const chosen = (${mainContent})({include: [], exclude: [], main: true});
  opts.roots = chosen.roots; opts.skip = chosen.skip; opts.revealed = chosen.revealed;
  return (${snapshot})(opts); })()`;

const norm = (s) => String(s || '').replace(/\s+/g, ' ').trim();

// trafilatura's metric: snippets found in the collapsed text.
const snippets = {
  page(page, text) {
    const t = norm(text);
    const found = (w) => text !== null && t.includes(norm(w));
    const s = { tp: 0, fn: 0, fp: 0, tn: 0, missed: [], kept: [] };
    for (const w of page.with || []) found(w) ? s.tp++ : (s.fn++, s.missed.push(w));
    for (const w of page.without || []) found(w) ? (s.fp++, s.kept.push(w)) : s.tn++;
    return s;
  },
  label: (s) => `${s.tp}/${s.tp + s.fn} +${s.fp}`,
  total(list) {
    let tp = 0, fn = 0, fp = 0;
    for (const s of list) { tp += s.tp; fn += s.fn; fp += s.fp; }
    return { precision: tp / (tp + fp), recall: tp / (tp + fn), f1: 2 * tp / (2 * tp + fp + fn) };
  },
};

// scrapinghub's evaluate.py: \w+ tokens, 4-token shingles counted with multiplicity, tp/fp/fn
// normalised per page; precision and recall are means over the pages where they are defined.
const tokens = (text) => String(text || '').match(/[\p{L}\p{N}_]+/gu) || [];
const shingleCounts = (text) => {
  const t = tokens(text);
  const counts = new Map();
  for (let i = 0; i < Math.max(1, t.length - 3); i++) {
    const key = t.slice(i, i + 4).join(' ');
    if (key) counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
};
const shingles = {
  page(page, text) {
    const truth = shingleCounts(page.truth), pred = shingleCounts(text === null ? '' : text);
    let tp = 0, fp = 0, fn = 0;
    for (const key of new Set([...truth.keys(), ...pred.keys()])) {
      const a = truth.get(key) || 0, b = pred.get(key) || 0;
      tp += Math.min(a, b); fp += Math.max(0, b - a); fn += Math.max(0, a - b);
    }
    const sum = tp + fp + fn;
    return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
  },
  label: (s) => `tp ${s.tp.toFixed(2)} fp ${s.fp.toFixed(2)} fn ${s.fn.toFixed(2)}`,
  total(list) {
    const p = (s) => (s.fp === 0 && s.fn === 0 ? 1 : s.tp === 0 && s.fp === 0 ? 0 : s.tp / (s.tp + s.fp));
    const r = (s) => (s.fp === 0 && s.fn === 0 ? 1 : s.tp === 0 && s.fn === 0 ? 0 : s.tp / (s.tp + s.fn));
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const precision = mean(list.filter((s) => s.tp + s.fp > 0).map(p));
    const recall = mean(list.filter((s) => s.tp + s.fn > 0).map(r));
    return { precision, recall, f1: 2 * precision * recall / (precision + recall) };
  },
};
const metric = set === 'trafilatura' ? snippets : shingles;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
         '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
  defaultViewport: { width: 1366, height: 768 },
});
const contenders = ['browser road', 'plain road', 'plain, whole page', 'Readability'];
const scores = Object.fromEntries(contenders.map((n) => [n, []]));
const done = [];  // the pages in the order their scores were pushed
const chosen = pages.filter((p) => !flags.only || p.name.includes(flags.only));
let next = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < chosen.length) {
    const page = chosen[next++];
    const tab = await browser.newPage();
    await serve(tab, page);
    const texts = {};
    const raw = await tab.evaluate(expression).catch(() => null);
    texts['browser road'] = raw === null ? null : await ask('tree ' + JSON.stringify(raw));
    texts['plain road'] = await ask('main ' + path.join(root, page.path));
    texts['plain, whole page'] = await ask('all ' + path.join(root, page.path));
    texts.Readability = await tab.evaluate(`(() => { ${readability};
      const a = new Readability(document.cloneNode(true)).parse(); return a ? a.textContent : ''; })()`).catch(() => null);
    await tab.close();
    if (flags.dump) {
      fs.mkdirSync(flags.dump, { recursive: true });
      for (const name of contenders) {
        fs.writeFileSync(path.join(flags.dump, `${page.name}.${name.replace(/\W+/g, '-')}.txt`), String(texts[name]));
      }
    }
    const row = [];
    const lines = [];
    for (const name of contenders) {
      const s = metric.page(page, texts[name]);
      scores[name].push(s);
      if (name === contenders[0]) done.push(page);
      row.push(`${name} ${metric.label(s)}`);
      for (const w of s.missed || []) lines.push(`    ${name} misses: ${w}`);
      for (const w of s.kept || []) lines.push(`    ${name} keeps: ${w}`);
    }
    console.log(`${page.name.slice(0, 44).padEnd(45)} ${row.join('  ')}`);
    if (flags.show === 'true') for (const l of lines) console.log(l);
  }
}));
// One table per part: the whole run, and on scrapinghub each half that is in it.
const parts = [['', () => true]];
if (set === 'scrapinghub' && split === 'all') {
  parts.push([', dev half', (p) => p.name[0] < '8'], [', held-out half', (p) => p.name[0] >= '8']);
}
for (const [label, inPart] of parts) {
  const keep = done.map(inPart);
  console.log(`\n${set}${label || (set === 'scrapinghub' ? `, split ${split}` : '')}, ${keep.filter(Boolean).length} pages`);
  console.log('\n| contender | precision | recall | F1 |\n|---|---|---|---|');
  for (const name of contenders) {
    const { precision, recall, f1 } = metric.total(scores[name].filter((_, i) => keep[i]));
    console.log(`| ${name} | ${precision.toFixed(3)} | ${recall.toFixed(3)} | ${f1.toFixed(4)} |`);
  }
}
await browser.close();
tool.stdin.end();
if (set === 'scrapinghub') fs.rmSync(root, { recursive: true, force: true });
