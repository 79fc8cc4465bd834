// The bare floor for site endpoints: the same Chromium and flags, 4 warm tabs that navigate to a
// site page and read its HTML, every request answered from the same replay archive as gleaner's
// (bench/sites/archive.py), loading everything the page asks for. Serves GET /floor?url=<page>.
// Counts the requests the pages made (the floor blocks nothing), for the bytes comparison.
//   default       warm tabs reused from request to request (cookies, storage and cache shared)
//   --fresh true  a fresh browser context per request: new context, new page, interception on,
//                 navigate, read the HTML, close the context: the isolation gleaner gives every
//                 request without a session (issue 36's per-request floor)
// Usage: node floor.mjs --port P --archive DIR [--pages 4] [--fresh false]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseFlags, launchPool, NAV_TIMEOUT_MS } from '../web/common.mjs';

const flags = parseFlags(process.argv.slice(2), { port: '0', pages: '4', archive: '', fresh: 'false' });
const fresh = flags.fresh === 'true';
const index = JSON.parse(fs.readFileSync(path.join(flags.archive, 'index.json'), 'utf8'));
const TYPES = { html: 'text/html; charset=utf-8', json: 'application/json; charset=utf-8',
                xml: 'text/xml; charset=utf-8' };
const bodies = new Map();
const answer = (url) => {
  const e = index.entries.find((x) => x.match === 'exact' ? x.url === url
      : x.match === 'prefix' ? url.startsWith(x.url) : new RegExp(`^(?:${x.url})$`).test(url));
  if (!e) return { status: 404, body: '' };
  if (!bodies.has(e.file)) bodies.set(e.file, fs.readFileSync(path.join(flags.archive, e.file)));
  const ext = e.file.split('.').pop();
  return { status: e.status || 200, body: bodies.get(e.file),
           contentType: TYPES[ext] || 'application/octet-stream' };
};

const { browser, pool } = await launchPool(fresh ? 0 : Number(flags.pages));
let requests = 0;
let bytes = 0;
const intercept = async (page) => {
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    ++requests;
    const a = answer(req.url());
    bytes += a.body.length;
    req.respond(a).catch(() => {});
  });
};
for (const page of pool.free) await intercept(page);

// Navigates `page` to `url` and reads its HTML; answers its length.
const read = async (page, url) => {
  await page.goto(url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
  return (await page.content()).length;
};
const load = async (url) => {
  if (!fresh) {
    const page = await pool.acquire();
    try {
      return await read(page, url);
    } finally {
      pool.release(page);
    }
  }
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1366, height: 768 });
    await intercept(page);
    return await read(page, url);
  } finally {
    await context.close();
  }
};

const server = http.createServer(async (req, res) => {
  const u = new URL(req.url, 'http://x');
  if (u.pathname === '/stats') {
    res.end(JSON.stringify({ requests, bytes }));
    return;
  }
  try {
    const length = await load(u.searchParams.get('url'));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ length }));
  } catch (e) {
    res.writeHead(500).end(String(e));
  }
});
server.keepAliveTimeout = 60000;
server.listen(Number(flags.port), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', async () => { await browser.close(); process.exit(0); });
