// The bare floors: the same Chromium and flags, serving each request by navigating and reading
// the HTML, nothing else. Served over the same HTTP shape as POST /scrape/web so load.mjs
// measures all contenders the same way.
//   default       warm tabs reused from request to request (cookies, storage and cache shared)
//   --fresh true  a fresh browser context per request: new context, new page, navigate, read the
//                 HTML, close the context (the isolation gleaner gives every request without a
//                 session: nothing one request leaves is seen by another)
// Usage: node floor.mjs --port P [--pages 4] [--fresh false] [--shots DIR (ignored)]
import { parseFlags, launchPool, serve, NAV_TIMEOUT_MS } from './common.mjs';

const flags = parseFlags(process.argv.slice(2), { port: '0', pages: '4', fresh: 'false' });
const fresh = flags.fresh === 'true';
const { browser, pool } = await launchPool(fresh ? 0 : Number(flags.pages));

serve(Number(flags.port), async (body) => {
  if (fresh) {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.setViewport({ width: 1366, height: 768 });
      await page.goto(body.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
      return { content: await page.content() };
    } finally {
      await context.close();
    }
  }
  const page = await pool.acquire();
  try {
    await page.goto(body.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
    return { content: await page.content() };
  } finally {
    pool.release(page);
  }
});
process.on('SIGTERM', async () => { await browser.close(); process.exit(0); });
