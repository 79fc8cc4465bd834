// What each screenshot format costs Chromium: one page loaded once, then captured `--rounds`
// times in each format as gleaner asks it (Page.captureScreenshot with captureBeyondViewport and
// a clip of the whole page, optimizeForSpeed), printing the median wall time and the size.
// Usage: node formats.mjs --url URL [--rounds 5] [--quality 80]
import puppeteer from 'puppeteer-core';
import { parseFlags, CHROMIUM_ARGS } from './common.mjs';

const flags = parseFlags(process.argv.slice(2), { url: '', rounds: '5', quality: '80' });
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
  defaultViewport: { width: 1366, height: 768 },
});
try {
  const page = await browser.newPage();
  await page.goto(flags.url, { waitUntil: 'load', timeout: 60000 });
  const cdp = await page.createCDPSession();
  const { cssContentSize: size } = await cdp.send('Page.getLayoutMetrics');
  const clip = { x: 0, y: 0, width: Math.ceil(size.width), height: Math.min(Math.ceil(size.height), 16384), scale: 1 };
  console.log(`${flags.url}: ${clip.width} x ${clip.height} CSS px`);
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  for (const format of ['png', 'jpeg', 'webp']) {
    const times = [];
    let bytes = 0;
    for (let i = 0; i < Number(flags.rounds); ++i) {
      const params = { format, captureBeyondViewport: true, clip, optimizeForSpeed: true };
      if (format !== 'png') params.quality = Number(flags.quality);
      const started = performance.now();
      const { data } = await cdp.send('Page.captureScreenshot', params);
      times.push(performance.now() - started);
      bytes = Buffer.from(data, 'base64').length;
    }
    console.log(`${format.padEnd(5)} ${Math.round(median(times))} ms (median of ${times.length}), ${(bytes / 1e6).toFixed(2)} MB`);
  }
} finally {
  await browser.close();
}
