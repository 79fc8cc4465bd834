// The local sites the hostile mix (soak.mjs --hostile) sends gleaner to, each on its own loopback
// port so that each is an origin of its own (robots.txt and pacing are per origin):
//   normal     small pages /p/N (5 KB, a few links), the batch's pages /b/N, and:
//              /inf/...  an infinite site: every page links to 8 pages one level deeper and to a
//                        page whose path is 60 a's and a digit (what ^/(a+)+$ backtracks on);
//              /dom      20,000 nested and sibling elements (expensive XPath and CSS rules);
//              /big/N    a 10 MB page (html, text and markdown of it are ~30 MB a row);
//   robots     a 16 MiB robots.txt (issue 34 item 4), pages as `normal`;
//   sitemap    robots.txt naming a 60 MB sitemap of 600,000 URLs and a gzip bomb (a 1 GB sitemap
//              in 1 MB), pages as `normal`.
// Usage: node hostile_origin.mjs PORTS_FILE   — writes {"normal": P, "robots": P, "sitemap": P}
// to PORTS_FILE once listening, and serves until killed.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');
const para = (n) => Array.from({ length: n }, (_, i) => words[(i * 7 + n) % words.length]).join(' ');

function small(path, n) {
  const links = [1, 2, 3].map((k) => `<a href="/p/${(n * 3 + k) % 500}">page ${k}</a>`).join(' ');
  return `<!doctype html><html><head><title>Page ${path}</title><meta name="description" content="p${n}"></head>` +
    `<body><main><h1>Page ${n}</h1><p>${para(400)}</p><p>${para(300)}</p><nav>${links}</nav></main></body></html>`;
}

function infinite(path) {
  const base = path.endsWith('/') ? path.slice(0, -1) : path;
  const depth = base.split('/').length;
  const links = Array.from({ length: 8 }, (_, k) => `<a href="${base}/${k}">${k}</a>`).join(' ');
  return `<!doctype html><html><head><title>${path}</title></head><body><h1>depth ${depth}</h1>` +
    `<p>${para(50)}</p>${links} <a href="/${'a'.repeat(60)}${depth % 10}">a's</a></body></html>`;
}

let dom = null;
function domPage() {
  if (dom) return dom;
  const parts = ['<!doctype html><html><head><title>dom</title></head><body>'];
  for (let i = 0; i < 2000; ++i) {
    parts.push(`<div class="r"><div><span>${i}</span><div><span>a</span></div></div>`);
    for (let k = 0; k < 6; ++k) parts.push(`<div><span>${k}</span></div>`);
    parts.push('</div>');
  }
  parts.push('</body></html>');
  dom = parts.join('');
  return dom;
}

const bigCache = new Map();
function bigPage(n) {
  const key = n % 4;
  if (!bigCache.has(key)) {
    const chunk = `<p>${para(200)} ${key}</p>\n`;
    bigCache.set(key, `<!doctype html><html><head><title>big ${key}</title></head><body><article>` +
      chunk.repeat(Math.ceil(10e6 / chunk.length)) + '</article></body></html>');
  }
  return bigCache.get(key);
}

let robotsBody = null;
function hugeRobots() {
  if (!robotsBody) {
    let size = 0;
    const out = ['User-agent: *\n'];
    for (let i = 0; size < 16 * 1024 * 1024; ++i) {
      const line = `Disallow: /private/${i}/${'x'.repeat(40)}\n`;
      out.push(line);
      size += line.length;
    }
    out.push('Allow: /\n');
    robotsBody = out.join('');
  }
  return robotsBody;
}

let sitemapBody = null;
function hugeSitemap(port) {
  if (!sitemapBody) {
    const out = ['<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
    for (let i = 0; i < 600000; ++i) out.push(`<url><loc>http://127.0.0.1:${port}/p/${i}?${'q'.repeat(40)}</loc></url>`);
    out.push('</urlset>');
    sitemapBody = out.join('\n');
  }
  return sitemapBody;
}

let bomb = null;
function gzipBomb() {
  if (!bomb) {
    // 1 GB of one repeated URL entry, compressed to about a megabyte.
    const entry = Buffer.from('<url><loc>http://127.0.0.1/p/1</loc></url>\n'.repeat(1 << 14));
    const gz = zlib.createGzip({ level: 9 });
    const chunks = [];
    gz.on('data', (c) => chunks.push(c));
    const done = new Promise((r) => gz.on('end', r));
    gz.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (let i = 0; i < Math.ceil(1e9 / entry.length); ++i) gz.write(entry);
    gz.end('</urlset>');
    bomb = done.then(() => Buffer.concat(chunks));
  }
  return bomb;
}

function serve(role) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = url.pathname;
    const html = (body) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(body); };
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const port = req.socket.localPort;
      if (role === 'robots') return res.end(hugeRobots());
      if (role === 'sitemap') return res.end(`User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:${port}/sitemap.xml\nSitemap: http://127.0.0.1:${port}/bomb.xml.gz\n`);
      return res.end('User-agent: *\nAllow: /\n');
    }
    if (path === '/sitemap.xml') { res.writeHead(200, { 'content-type': 'application/xml' }); return res.end(hugeSitemap(req.socket.localPort)); }
    if (path === '/bomb.xml.gz') { res.writeHead(200, { 'content-type': 'application/gzip' }); return res.end(await gzipBomb()); }
    if (path.startsWith('/inf') || /^\/a{20,}/.test(path)) return html(infinite(path));
    if (path === '/dom') return html(domPage());
    const big = /^\/big\/(\d+)/.exec(path);
    if (big) return html(bigPage(Number(big[1])));
    const n = /^\/[pb]\/(\d+)/.exec(path);
    if (n) return html(small(path, Number(n[1])));
    if (path === '/') return html(small('/', 0));
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html><body>not here</body></html>');
  });
}

const ports = {};
for (const role of ['normal', 'robots', 'sitemap']) {
  const server = serve(role);
  server.keepAliveTimeout = 5000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  ports[role] = server.address().port;
}
fs.writeFileSync(process.argv[2], JSON.stringify(ports));
