// The bare floor: the same Chromium and flags with warm tabs that only navigate and read the
// HTML. Served over the same HTTP shape as POST /scrape/web so load.mjs measures all contenders
// the same way. Usage: node floor.mjs --port P [--pages 4] [--shots DIR (ignored)]
import { parseFlags, launchPool, serve, NAV_TIMEOUT_MS } from './common.mjs';

const flags = parseFlags(process.argv.slice(2), { port: '0', pages: '4' });
const { browser, pool } = await launchPool(Number(flags.pages));

serve(Number(flags.port), async (body) => {
  const page = await pool.acquire();
  try {
    await page.goto(body.url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
    return { content: await page.content() };
  } finally {
    pool.release(page);
  }
});
process.on('SIGTERM', async () => { await browser.close(); process.exit(0); });
