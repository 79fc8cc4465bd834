// Records snapshot.js's output on a saved page, for the recorded tests in tests/content/data/.
// Not part of the build. Needs Node and puppeteer-core (install it outside the repository):
//   npm install --prefix /some/tmp puppeteer-core
//   NODE_PATH=/some/tmp/node_modules node tests/content/tools/capture_snapshot.cjs \
//       PAGE.html URL OUT.json [CHROMIUM]
// The page is served as URL (so links resolve as on the site); every other request is aborted,
// as in the replay archive with nothing else in it. The output keeps text, tree, links and meta
// (not html: it is the page itself).
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

async function main() {
  const [file, url, out, executablePath = '/usr/bin/chromium'] = process.argv.slice(2);
  if (!file || !url || !out) {
    console.error('usage: capture_snapshot.cjs PAGE.html URL OUT.json [CHROMIUM]');
    process.exit(2);
  }
  const script = fs.readFileSync(
      path.join(__dirname, '..', '..', '..', 'extract', 'content', 'snapshot.js'), 'utf8');
  const body = fs.readFileSync(file);
  const browser = await puppeteer.launch(
      {executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu']});
  try {
    const page = await browser.newPage();
    await page.setViewport({width: 1366, height: 900});
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.url() === url && request.isNavigationRequest()) {
        request.respond({status: 200, contentType: 'text/html; charset=utf-8', body});
      } else {
        request.abort();
      }
    });
    await page.goto(url, {waitUntil: 'load', timeout: 60000});
    const session = await page.createCDPSession();
    const parts = {text: true, tree: true, links: true, meta: true};
    const result = await session.send('Runtime.evaluate', {
      expression: '(' + script.trim() + ')(' + JSON.stringify(parts) + ')',
      returnByValue: true,
    });
    if (result.exceptionDetails) throw new Error(JSON.stringify(result.exceptionDetails));
    fs.writeFileSync(out, JSON.stringify(result.result.value));
    console.error('wrote ' + out);
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
