// The stealth detector site (tests/stealth/page) on 127.0.0.1, as tests/stealth/stealth_site.cpp
// serves it to the C++ suite: the page with its CSP and nonce, its scripts, the headers echo, the
// touches and the verdict of each run, and the hold that keeps the page's load event until the
// verdict arrived. For the peers' bench (run.js) and for looking at a browser by hand.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const pageDir = path.join(__dirname, '..', '..', 'tests', 'stealth', 'page');
const NONCE = 'c3RlYWx0aC1kZXRlY3Rvcg';

function startSite(port = 0) {
  const runs = new Map();  // run → {verdict, touches: [], documentHeaders, waiters: []}
  const runOf = (id) => {
    if (!runs.has(id)) runs.set(id, {verdict: null, touches: [], documentHeaders: null, waiters: []});
    return runs.get(id);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const id = url.searchParams.get('run') || url.searchParams.get('q') || 'none';
    const send = (status, type, body, headers = {}) => {
      res.writeHead(status, {'content-type': type, 'cache-control': 'no-store', ...headers});
      res.end(body);
    };
    const file = (name, type) => send(200, type, fs.readFileSync(path.join(pageDir, name)));
    if (url.pathname === '/stealth/early.js') return file('early.js', 'text/javascript');
    if (url.pathname === '/stealth/detector.js') return file('detector.js', 'text/javascript');
    if (url.pathname === '/stealth/worker.js') return file('worker.js', 'text/javascript');
    if (url.pathname === '/stealth/sw.js') return file('sw.js', 'text/javascript');
    if (url.pathname === '/stealth/botd/botd.esm.js') return file('botd/botd.esm.js', 'text/javascript');
    if (url.pathname === '/stealth/headers') return send(200, 'application/json', JSON.stringify(req.headers));
    if (url.pathname === '/stealth/touch') {
      runOf(id).touches.push({check: url.searchParams.get('check'), detail: url.searchParams.get('detail')});
      return send(204, 'text/plain', '');
    }
    if (url.pathname === '/stealth/report') {
      const run = runOf(id);
      run.verdict = JSON.parse(url.searchParams.get('v'));
      for (const w of run.waiters.splice(0)) w();
      return send(204, 'text/plain', '');
    }
    if (url.pathname === '/stealth/hold') {
      const run = runOf(id);
      const answer = () => send(200, 'text/html', '<!doctype html><title>held</title>');
      if (run.verdict) return answer();
      const timer = setTimeout(answer, 15000);
      run.waiters.push(() => { clearTimeout(timer); answer(); });
      return;
    }
    if (url.pathname === '/favicon.ico') return send(404, 'text/plain', '');
    // Any other path is the detector page.
    runOf(id).documentHeaders = req.headers;
    const html = fs.readFileSync(path.join(pageDir, 'detector.html'), 'utf8').replaceAll('NONCE', NONCE);
    return send(200, 'text/html; charset=utf-8', html, {
      'content-security-policy': `default-src 'self'; script-src 'self' 'nonce-${NONCE}'; ` +
                                 `style-src 'self' 'unsafe-inline'; img-src 'self' data:`,
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({
    server,
    port: server.address().port,
    url: (p) => `http://127.0.0.1:${server.address().port}${p}`,
    run: (id) => runOf(id),
    /** Resolves with the run's verdict once it arrived (null after `ms`). */
    verdict: (id, ms = 20000) => new Promise((done) => {
      const run = runOf(id);
      if (run.verdict) return done(run.verdict);
      const timer = setTimeout(() => done(null), ms);
      run.waiters.push(() => { clearTimeout(timer); done(run.verdict); });
    }),
  })));
}

module.exports = {startSite, NONCE};

if (require.main === module) {
  startSite(Number(process.argv[2] || 8765)).then((site) => {
    console.log('stealth site on', site.url('/stealth/page?run=by-hand'));
    setInterval(() => {}, 1 << 30);
  });
}
