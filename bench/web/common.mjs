// Shared by the Puppeteer service and the floor: the same Chromium, the same flags, the same
// pool of warm pages, so the two differ only in the work done per request.
import http from 'node:http';
import puppeteer from 'puppeteer-core';

/// The flags the brief fixes for every contender; the resolver rule makes outside references fail
/// at once instead of waiting on DNS.
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

/// Parses `--name value` flags into an object (values stay strings).
export function parseFlags(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(`bad flag ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  return out;
}

/// A fixed set of warm pages handed out one per request; waiters queue in arrival order.
export class PagePool {
  constructor(pages) { this.free = pages; this.waiters = []; }
  acquire() {
    if (this.free.length) return Promise.resolve(this.free.pop());
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release(page) {
    const next = this.waiters.shift();
    if (next) next(page); else this.free.push(page);
  }
}

/// Launches Chromium with `pages` warm tabs (about:blank loaded) and returns the browser and pool.
export async function launchPool(pages) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    // gleaner's default viewport (browser/page.h), so both render and capture the same pages at
    // the same size (Puppeteer's own default, 800x600, makes images 40% narrower).
    defaultViewport: { width: 1366, height: 768 },
  });
  const list = [];
  for (let i = 0; i < pages; ++i) {
    const page = await browser.newPage();
    await page.goto('about:blank');
    list.push(page);
  }
  return { browser, pool: new PagePool(list) };
}

/// Serves POST /scrape/web: parses the JSON body, runs `handle(body)` and answers its result as
/// JSON (500 with the message on failure). Prints "listening <port>" once bound.
export function serve(port, handle) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/scrape/web') {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let status = 200;
      let out;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (typeof body.url !== 'string') throw new Error('url is required');
        out = await handle(body);
      } catch (e) {
        status = 500;
        out = { error: String(e && e.message ? e.message : e) };
      }
      const text = JSON.stringify(out);
      res.writeHead(status, { 'content-type': 'application/json',
                              'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.keepAliveTimeout = 60000;
  server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
  return server;
}

/// Navigation timeout per request, the same for every contender.
export const NAV_TIMEOUT_MS = Number(process.env.BENCH_NAV_TIMEOUT_MS || 30000);
