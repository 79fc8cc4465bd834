// A hand-written Puppeteer equivalent of gleaner's POST /scrape/web: one Debian Chromium, html +
// markdown (turndown) + text (innerText) + links + e-mails + optional full-page screenshot.
// Usage: node puppeteer_service.mjs --port P [--pages 4] [--shots DIR] [--isolate false]
// --isolate false: a pool of warm tabs reused by every request (not isolated: cookies, storage
// and cache carry over). --isolate true: each request gets a new browser context and tab, closed
// after it (isolated, as gleaner is), at most `pages` at once.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import TurndownService from 'turndown';
import { parseFlags, launchPool, serve, NAV_TIMEOUT_MS } from './common.mjs';

const flags = parseFlags(process.argv.slice(2), {
  port: '0', pages: '4', shots: path.join(os.tmpdir(), 'bench-puppeteer-shots'), isolate: 'false',
});
const isolate = flags.isolate === 'true';
fs.mkdirSync(flags.shots, { recursive: true });
const turndown = new TurndownService();
// A simple address pattern, as a hand-written service would use.
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// Isolated: the pool holds no tabs, only the right to open one (a slot per concurrent request).
const { browser, pool } = await launchPool(isolate ? 0 : Number(flags.pages));
if (isolate) for (let i = 0; i < Number(flags.pages); ++i) pool.release(null);

// A page for one request: a reused tab, or a fresh context's tab (closed by `done`).
async function openPage() {
  const slot = await pool.acquire();
  if (!isolate) return { page: slot, done: async () => pool.release(slot) };
  try {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1366, height: 768 });
    return { page, done: async () => { await context.close().catch(() => {}); pool.release(null); } };
  } catch (e) {
    pool.release(null);
    throw e;
  }
}

async function scrape(body) {
  const formats = Array.isArray(body.outputFormat) ? body.outputFormat : ['html'];
  // Where the time went, as gleaner's debug log says it (phases.mjs reads `benchPhases`).
  const phases = {};
  let mark = performance.now();
  const phase = (name) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
  };
  const { page, done } = await openPage();
  phase('lease');
  try {
    const response = await page.goto(body.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
    phase('navigation');
    const html = await page.content();
    const out = { requestMetadata: { id: crypto.randomUUID(), status: 'ok' }, headers: {} };
    if (response) out.headers = response.headers();
    if (formats.includes('html')) out.content = html;
    if (formats.includes('text') || body.extractEmails) {
      out.text = await page.evaluate(() => document.body ? document.body.innerText : '');
    }
    if (formats.includes('markdown')) out.markdown = turndown.turndown(html);
    if (body.extractLinks) {
      out.extractedLinks = await page.evaluate(() => [...new Set([...document.querySelectorAll('a[href]')]
        .map((a) => a.href).filter((h) => h.startsWith('http')))]);
    }
    if (body.extractEmails) out.extractedEmails = [...new Set(html.match(EMAIL) || [])];
    phase('snapshot');
    if (body.screenshot) {
      const file = path.join(flags.shots, `${out.requestMetadata.id}.png`);
      await page.screenshot({ path: file, fullPage: true });
      out.screenshot = `file://${file}`;
      phase('screenshot');
    }
    out.benchPhases = phases;
    if (!formats.includes('text') && out.text !== undefined) delete out.text;
    return out;
  } finally {
    await done();
  }
}

serve(Number(flags.port), scrape);
process.on('SIGTERM', async () => { await browser.close(); process.exit(0); });
