// The static server every contender crawls: the generated site's files held in memory, answered
// by Node's http with keep-alive (python's http.server, one thread per connection and HTTP/1.0,
// tops out near the rates measured here; see run.sh --server-check). A directory path answers its
// index.html. Counts the requests it answered and prints the count on SIGTERM.
//   node serve.mjs --dir DIR [--port 0]   prints "listening <port>"
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean)
  .map((s) => s.trim().split(/\s+/)));
const root = args.dir;
const files = new Map();
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full);
    else files.set('/' + path.relative(root, full).split(path.sep).join('/'), fs.readFileSync(full));
  }
})(root);
const types = { html: 'text/html; charset=utf-8', css: 'text/css', txt: 'text/plain' };
let answered = 0;
const server = http.createServer((req, res) => {
  ++answered;
  let p = decodeURIComponent(req.url.split('?')[0]);
  if (p.endsWith('/')) p += 'index.html';
  const body = files.get(p);
  if (!body || p === '/expected.txt') {
    res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 9 }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': types[p.split('.').pop()] || 'application/octet-stream',
                       'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(Number(args.port || 0), '127.0.0.1',
              () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => { console.log(`answered ${answered}`); process.exit(0); });
