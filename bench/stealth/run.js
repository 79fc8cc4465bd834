// Runs the stealth detector page (tests/stealth/page) with other automation tools on the same
// Chromium, and with a windowed Chromium under Xvfb that nothing automates (the reference), and
// prints one line per check and tool. docs/stealth.md keeps the table.
//
//   node run.js [tool ...]     tools: windowed puppeteer stealth rebrowser patchright gleaner
//   gleaner needs GLEANER_URL (e.g. http://127.0.0.1:8080) and GLEANER_KEY: a running service
//   whose address guard lets it reach 127.0.0.1 (allow_private_addresses).
// CHROMIUM (default /usr/bin/chromium); windowed needs Xvfb on DISPLAY (default :99, started if
// missing). Every page is on 127.0.0.1: nothing leaves the machine.
'use strict';
const {spawn} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {startSite} = require('./site');

const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const root = process.getuid && process.getuid() === 0;

async function withPuppeteer(puppeteer, site, run, extraArgs = []) {
  const browser = await puppeteer.launch({
    executablePath: chromium, headless: true,
    args: [...(root ? ['--no-sandbox'] : []), ...extraArgs],
  });
  try {
    const page = await browser.newPage();
    await page.goto(site.url('/stealth/page?run=' + run), {waitUntil: 'load'});
    await clickAndType(page);
    return await site.verdict(run);
  } finally {
    await browser.close();
  }
}

// What a scraper does once the page loaded: read it (the tool's own way: the main-world traps
// see it if that way runs in the page's world), then a person's click and typing.
async function clickAndType(page) {
  await page.content();
  await page.$eval('#stealth-verdict', (e) => e.textContent);
  await page.click('#probe-button');
  await page.type('#probe-input', 'ab');
  // The traps report synchronously: nothing to wait for.
}

const tools = {
  async puppeteer(site, run) {
    return withPuppeteer(require('puppeteer-core'), site, run);
  },
  async stealth(site, run) {
    const puppeteer = require('puppeteer-extra');
    puppeteer.use(require('puppeteer-extra-plugin-stealth')());
    return withPuppeteer(puppeteer, site, run);
  },
  async rebrowser(site, run) {
    return withPuppeteer(require('rebrowser-puppeteer-core'), site, run);
  },
  async patchright(site, run) {
    const {chromium: pw} = require('patchright-core');
    const browser = await pw.launch({executablePath: chromium, headless: true,
                                     args: root ? ['--no-sandbox'] : []});
    try {
      const page = await (await browser.newContext()).newPage();
      await page.goto(site.url('/stealth/page?run=' + run), {waitUntil: 'load'});
      await clickAndType(page);
      return await site.verdict(run);
    } finally {
      await browser.close();
    }
  },
  async windowed(site, run) {
    // Chromium with a window and no DevTools client at all: what a person's Chromium shows.
    const display = process.env.DISPLAY || ':99';
    let xvfb = null;
    if (!fs.existsSync('/tmp/.X11-unix/X' + display.slice(1))) {
      xvfb = spawn('Xvfb', [display, '-screen', '0', '1920x1080x24'], {stdio: 'ignore'});
      await new Promise((r) => setTimeout(r, 1000));
    }
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'stealth-windowed-'));
    const browser = spawn(chromium, [
      ...(root ? ['--no-sandbox'] : []), '--no-first-run', '--no-default-browser-check',
      '--user-data-dir=' + profile, '--window-size=1366,900',
      site.url('/stealth/page?run=' + run)], {env: {...process.env, DISPLAY: display},
                                              stdio: 'ignore'});
    try {
      return await site.verdict(run, 30000);
    } finally {
      browser.kill('SIGTERM');
      await new Promise((r) => browser.once('exit', r));
      fs.rmSync(profile, {recursive: true, force: true});
      if (xvfb) xvfb.kill('SIGTERM');
    }
  },
  async gleaner(site, run) {
    const answer = await fetch(process.env.GLEANER_URL + '/scrape/web', {
      method: 'POST',
      headers: {'x-api-key': process.env.GLEANER_KEY, 'content-type': 'application/json'},
      body: JSON.stringify({
        url: site.url('/stealth/page?run=' + run), outputFormat: ['html'],
        jsScenario: [{click: '#probe-button'}, {fill: ['#probe-input', 'ab']}]}),
    });
    if (!answer.ok) throw new Error('gleaner answered ' + answer.status + ' ' + await answer.text());
    return site.verdict(run);
  },
};

function eventsOf(run) {
  const events = run.touches.filter((t) => t.check === 'event').map((t) => t.detail);
  const clicks = events.filter((e) => e.startsWith('click'));
  return {
    pass: events.length > 0 && events.every((e) => e.includes('trusted=true')) &&
          clicks.every((e) => e.includes('moved=true')),
    value: events,
  };
}

async function main() {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(tools);
  const site = await startSite();
  const rows = {};
  for (const name of names) {
    const run = name + '-' + Date.now();
    let verdict = null;
    try {
      verdict = await tools[name](site, run);
    } catch (e) {
      console.error(name + ': ' + e.message);
    }
    const record = site.run(run);
    const checks = verdict ? {...verdict.checks} : {};
    // What the page told the server after its verdict: main-world calls and Runtime.enable
    // during the tool's own work, and the events of its click and typing.
    const late = (check) => record.touches.filter((t) => t.check === check).map((t) => t.detail);
    if (verdict) {
      const atVerdict = (name) => checks[name] || {pass: true, value: null};
      checks.main_world = {pass: atVerdict('main_world').pass && late('main_world').length === 0,
                           value: {atVerdict: atVerdict('main_world').value,
                                   touches: late('main_world')}};
      checks.runtime_enable = {pass: atVerdict('runtime_enable').pass &&
                                         late('runtime_enable').length === 0,
                               value: {atVerdict: atVerdict('runtime_enable').value,
                                       touches: late('runtime_enable')}};
      checks.trusted_events = name === 'windowed' ? {pass: null, value: 'nobody clicks'}
                                                  : eventsOf(record);
    }
    rows[name] = checks;
    console.log('## ' + name);
    for (const [check, r] of Object.entries(checks)) {
      console.log(`${check}\t${r.pass === null ? '-' : r.pass ? 'pass' : 'FAIL'}\t` +
                  JSON.stringify(r.value).slice(0, 300));
    }
  }
  fs.writeFileSync(path.join(__dirname, 'results.json'), JSON.stringify(rows, null, 1));
  site.server.close();
  process.exit(0);
}

main();
