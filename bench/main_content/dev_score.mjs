// onlyMainContent scored on shared/fixtures/main-content (its README gives the metric) without a
// service: each page is loaded in Chromium from a local server, the browser road's in-page code
// runs as extract/web/outputs.cpp composes it (main_content.js choosing the parts, snapshot.js
// building the tree) and main_content_text (this folder, C++) turns the tree into `text`; the
// plain road's C++ runs on the saved file; Mozilla's Readability runs in the same tab.
//   node dev_score.mjs [--tool <repo>/build/bench/main_content/main_content_text] [--only substring]
//                      [--show true]   (--show: each page's missed and unwanted snippets)
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const fixtures = path.resolve(repo, '../shared/fixtures/main-content/trafilatura/tests');
const flags = {};
for (let i = 2; i < process.argv.length; i += 2) flags[process.argv[i].slice(2)] = process.argv[i + 1];
const toolPath = flags.tool || path.join(repo, 'build/bench/main_content/main_content_text');

const evaldata = JSON.parse(fs.readFileSync(path.join(fixtures, 'evaldata.json'), 'utf8'));
const pages = [];
for (const entry of Object.values(evaldata)) {
  for (const dir of ['cache', 'eval']) {
    if (fs.existsSync(path.join(fixtures, dir, entry.file))) {
      pages.push({ ...entry, path: `/${dir}/${entry.file}` });
      break;
    }
  }
}

// The saved pages as they are, without a charset in Content-Type (as the files carry none).
const server = http.createServer((req, res) => {
  try {
    const body = fs.readFileSync(path.join(fixtures, decodeURIComponent(req.url.split('?')[0])));
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const port = server.address().port;

const tool = spawn(toolPath, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = [];
readline.createInterface({ input: tool.stdout }).on('line', (l) => answers.shift()(JSON.parse(l)));
const ask = (line) => new Promise((resolve) => {
  answers.push(resolve);
  tool.stdin.write(line.replace(/\n/g, ' ') + '\n');
});

const script = (name) => fs.readFileSync(path.join(repo, name), 'utf8');
const mainContent = script('extract/content/main_content.js');
const snapshot = script('extract/content/snapshot.js');
const readability = fs.readFileSync(path.join(here, 'node_modules/@mozilla/readability/Readability.js'), 'utf8');
const opts = { html: false, text: true, tree: true, links: false, meta: false, maxChars: 20000000,
               asString: true, dataImages: false };
const expression = `(() => { const opts = ${JSON.stringify(opts)};
  const chosen = (${mainContent})({include: [], exclude: [], main: true});
  opts.roots = chosen.roots; opts.skip = chosen.skip; opts.revealed = chosen.revealed;
  return (${snapshot})(opts); })()`;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
         '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
  defaultViewport: { width: 1366, height: 768 },
});
const norm = (s) => String(s || '').replace(/\s+/g, ' ').trim();
const contenders = ['browser road', 'plain road', 'plain, whole page', 'Readability'];
const totals = Object.fromEntries(contenders.map((n) => [n, { tp: 0, fn: 0, fp: 0, tn: 0 }]));
for (const page of pages) {
  if (flags.only && !page.file.includes(flags.only)) continue;
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${port}${page.path}`, { waitUntil: 'load', timeout: 20000 }).catch(() => {});
  const texts = {};
  const raw = await tab.evaluate(expression).catch(() => null);
  texts['browser road'] = raw === null ? null : await ask('tree ' + JSON.stringify(raw));
  texts['plain road'] = await ask('main ' + path.join(fixtures, page.path));
  texts['plain, whole page'] = await ask('all ' + path.join(fixtures, page.path));
  texts.Readability = await tab.evaluate(`(() => { ${readability};
    const a = new Readability(document.cloneNode(true)).parse(); return a ? a.textContent : ''; })()`).catch(() => null);
  await tab.close();
  const row = [];
  for (const name of contenders) {
    const t = norm(texts[name]);
    const found = (w) => texts[name] !== null && t.includes(norm(w));
    const s = { tp: 0, fn: 0, fp: 0, tn: 0 };
    for (const w of page.with || []) found(w) ? s.tp++ : s.fn++;
    for (const w of page.without || []) found(w) ? s.fp++ : s.tn++;
    for (const k of Object.keys(s)) totals[name][k] += s[k];
    row.push(`${name} ${s.tp}/${s.tp + s.fn} +${s.fp}`);
    if (flags.show === 'true') {
      for (const w of page.with || []) if (!found(w)) console.log(`    ${name} misses: ${w}`);
      for (const w of page.without || []) if (found(w)) console.log(`    ${name} keeps: ${w}`);
    }
  }
  console.log(`${page.file.slice(0, 44).padEnd(45)} ${row.join('  ')}`);
}
console.log('\n| contender | precision | recall | F1 |\n|---|---|---|---|');
for (const name of contenders) {
  const { tp, fn, fp } = totals[name];
  console.log(`| ${name} | ${(tp / (tp + fp)).toFixed(3)} | ${(tp / (tp + fn)).toFixed(3)} | ${(2 * tp / (2 * tp + fp + fn)).toFixed(3)} |`);
}
await browser.close();
server.close();
tool.stdin.end();
