// What each step of a fresh context costs Chromium (issues 37 and 38: the fixed cost of a request
// on the browser road). Loads one page N times, one load at a time, each in a new browser context
// opened the way gleaner's page opener opens one (browser/instance.cpp open_page: a hidden
// target, the worker auto-attach, the user agent override, Page.enable and its lifecycle events,
// Network.enable, the viewport, Fetch.enable for documents), then navigates, waits for load,
// reads the HTML in an isolated world and disposes of the context; each variant changes one of
// these (VARIANTS below). Variants run in turn, round after round, so a slow spell falls on all.
// For each it prints:
//  - the CPU the browser's processes spent per load, by kind (proc.mjs; the whole tree, so it
//    moves with the machine's load);
//  - over N more loads, where a load's CPU goes step by step, each process's own utime+stime from
//    /proc (robust to load; counted in 10 ms ticks, hence means over the loads): the browser
//    process in Target.createBrowserContext, Target.createTarget, the attach and set-up commands,
//    the navigation, and the rest (reading, closing, disposing; taken 150 ms after); the page's
//    renderer from its birth to a set-up about:blank (CPU and minor page faults), in the
//    navigation and in the reading; and how many renderers the navigation started besides the
//    one about:blank got.
// Usage: node setup_cost.mjs --url URL [--n 30] [--rounds 3] [--variants gleaner,nobuffers,...]
//        [--script extract/sites/<site>/<name>.js --args '{...}'] (the reader variant's site script)
// Numbers: docs/benchmarks.md, run AG.
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';
import { parseFlags } from './common.mjs';
import { CpuMeter } from './proc.mjs';

const f = parseFlags(process.argv.slice(2), { n: '30', rounds: '3', variants: '' });
if (!f.url) throw new Error('--url is required');
const n = Number(f.n);

// gleaner's launch flags that matter for processes (browser/process.cpp).
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-site-isolation-trials', '--disable-back-forward-cache',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'];

const VARIANTS = {
  gleaner: {},                                  // what open_page sends today
  nobuffers: { network: { maxTotalBufferSize: 0, maxResourceBufferSize: 0 } },
  nolifecycle: { lifecycle: false },            // no Page.setLifecycleEventsEnabled
  noworkers: { workers: false },                // no Target.setAutoAttach for workers
  nofetch: { fetch: false },                    // no Fetch.enable
  mainworld: { isolated: false },               // read the HTML in the main world
  nonetwork: { networkEnable: false },          // no Network.enable
  // The in-page evaluation: the reader's one expression (page_reader.cpp compose_page_expression:
  // block signals, the kit, then --script, the site's script) in place of reading the HTML.
  reader: { expression: 'reader' },
  signals: { expression: 'signals' },           // the block signals alone
  nothing: { expression: 'nothing' },           // an evaluation that reads nothing
  // A warm page leased by a desktop site endpoint: opened with the default viewport (1366 x 768),
  // then given the endpoint's (1366 x 900, extract/endpoint.cpp) by append_configuration.
  twice: { lease: { width: 1366, height: 900 } },
};

// The files of extract/, as the build embeds them (trimmed of a trailing semicolon).
const repo = new URL('../../', import.meta.url).pathname;
const trim = (s) => s.replace(/[;\s]+$/, '');
const read = (path) => trim(fs.readFileSync(repo + path, 'utf8'));
const EXPRESSIONS = {
  signals: () => `(${read('extract/block_signals.js')})()`,
  nothing: () => '1',
  reader: () => `(async () => {
  const signals = (
${read('extract/block_signals.js')}
)();
  let data = null, error = null;
  try {
    const kit = (
${read('extract/sites/common/prelude.js')}
)();
    data = await (
${f.script ? read(f.script) : '() => null'}
)(${f.args || '{}'}, kit);
  } catch (e) {
    error = String((e && e.stack) || e);
  }
  return {signals, data, error};
})()`,
};

// utime+stime (ms) and minor faults of a process, from /proc.
function stat(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { cpu: (Number(fields[11]) + Number(fields[12])) * 10, faults: Number(fields[7]) };
}

async function rendererIds(conn) {
  const info = await conn.send('SystemInfo.getProcessInfo');
  return new Set(info.processInfo.filter((p) => p.type === 'renderer').map((p) => p.id));
}

// One load; with `steps` (the browser's pid and an object of arrays), records where its CPU went.
async function load(conn, v, steps) {
  const bpid = steps?.browserPid;
  const mark = () => (steps ? stat(bpid).cpu : 0);
  const existing = steps ? await rendererIds(conn) : null;
  const b0 = mark();
  const ctx = (await conn.send('Target.createBrowserContext', {})).browserContextId;
  const b1 = mark();
  const { targetId } = await conn.send('Target.createTarget',
    { url: 'about:blank', browserContextId: ctx, background: true, hidden: true });
  const b2 = mark();
  const { sessionId } = await conn.send('Target.attachToTarget', { targetId, flatten: true });
  const s = conn.session(sessionId);
  const calls = [];
  if (v.workers !== false) {
    calls.push(s.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true,
      flatten: true, filter: [{ type: 'worker', exclude: false }, { exclude: true }] }));
  }
  calls.push(s.send('Emulation.setUserAgentOverride', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', acceptLanguage: 'en-US,en;q=0.9', platform: 'Linux x86_64' }));
  calls.push(s.send('Page.enable'));
  if (v.lifecycle !== false) calls.push(s.send('Page.setLifecycleEventsEnabled', { enabled: true }));
  if (v.networkEnable !== false) calls.push(s.send('Network.enable', v.network || {}));
  calls.push(s.send('Emulation.setDeviceMetricsOverride', { width: 1366, height: 768,
    deviceScaleFactor: 1, mobile: false, screenWidth: 1920, screenHeight: 1080 }));
  if (v.fetch !== false) {
    s.on('Fetch.requestPaused', (p) => s.send('Fetch.continueRequest', { requestId: p.requestId }).catch(() => {}));
    calls.push(s.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document' }] }));
  }
  await Promise.all(calls);
  if (v.lease) {
    await s.send('Emulation.setDeviceMetricsOverride', { ...v.lease, deviceScaleFactor: 1,
      mobile: false, screenWidth: 1920, screenHeight: 1080 });
  }
  const b3 = mark();
  let renderer = null, r0 = null, own = null;
  if (steps) {
    own = [...(await rendererIds(conn))].filter((id) => !existing.has(id));
    renderer = own[0];
    r0 = stat(renderer);
  }
  const loaded = new Promise((resolve) => s.on('Page.loadEventFired', resolve));
  const b4 = mark();
  await s.send('Page.navigate', { url: f.url });
  await loaded;
  const b5 = mark();
  const r1 = steps ? stat(renderer) : null;
  const expression = v.expression ? EXPRESSIONS[v.expression]() : 'document.documentElement.outerHTML';
  if (v.isolated !== false) {
    const world = await s.send('Page.createIsolatedWorld', { frameId: targetId, worldName: 'gleaner' });
    const reply = await s.send('Runtime.evaluate', { expression, contextId: world.executionContextId, returnByValue: true, awaitPromise: true });
    if (reply.exceptionDetails || reply.result?.value?.error) throw new Error(JSON.stringify(reply).slice(0, 500));
  } else {
    await s.send('Runtime.evaluate', { expression, returnByValue: true });
  }
  const r2 = steps ? stat(renderer) : null;
  const more = steps
    ? [...(await rendererIds(conn))].filter((id) => !existing.has(id)).length - own.length : 0;
  await conn.send('Target.closeTarget', { targetId }).catch(() => {});
  await conn.send('Target.disposeBrowserContext', { browserContextId: ctx });
  if (steps) {
    await new Promise((resolve) => setTimeout(resolve, 150));  // the disposal is done by then
    const b6 = mark();
    const add = (name, value) => (steps[name] ||= []).push(value);
    add('browserContext', b1 - b0);
    add('browserTarget', b2 - b1);
    add('browserSetUp', b3 - b2);
    add('browserNavigation', b5 - b4);
    add('browserRest', b6 - b5);
    add('rendererBirth', r0.cpu);
    add('rendererBirthFaults', r0.faults);
    add('rendererNavigation', r1.cpu - r0.cpu);
    add('rendererReading', r2.cpu - r1.cpu);
    add('moreRenderers', more);
  }
}

async function measure(name) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ARGS,
    defaultViewport: null,
  });
  const conn = (await browser.target().createCDPSession()).connection();
  const v = VARIANTS[name];
  await load(conn, v);  // warm, untimed
  const cpu = new CpuMeter(browser.process().pid);
  cpu.start();
  const sampler = setInterval(() => cpu.sample(), 20);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; ++i) await load(conn, v);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  clearInterval(sampler);
  cpu.sample();
  // Where a load's CPU goes, step by step (apart: the look at the processes costs CPU too).
  const steps = { browserPid: browser.process().pid };
  for (let i = 0; i < n; ++i) await load(conn, v, steps);
  delete steps.browserPid;
  const mean = (a) => Math.round(a.reduce((x, y) => x + y, 0) / a.length);
  await browser.close();
  const byKind = cpu.msBy(n);
  return { variant: name, loads: n, msPerLoad: Math.round(ms / n),
           cpuMsPerLoad: Object.values(byKind).reduce((a, b) => a + b, 0), byKind,
           steps: Object.fromEntries(Object.entries(steps).map(([k, a]) => [k, mean(a)])) };
}

const names = f.variants ? f.variants.split(',') : Object.keys(VARIANTS);
for (let r = 0; r < Number(f.rounds); ++r)
  for (const name of names) console.log(JSON.stringify(await measure(name)));
