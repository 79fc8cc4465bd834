// Every operation of the service's own OpenAPI document, its parameters and body as a form, Send,
// the answer (answer.js) and the same request as curl, Python and fetch lines.
import { call } from './api.js';
import { renderAnswer } from './answer.js';
import { $, clear, el } from './dom.js';
import { bodyForm, parameterFields, resolve } from './schema_form.js';

// What a newcomer most likely wants to try first: filled in when the operation is opened.
const EXAMPLES = {
  'POST /scrape/web': { url: 'https://example.com/', outputFormat: ['markdown'], screenshot: true, extractLinks: true },
  'POST /scrapers/crawler/jobs': { urls: ['https://example.com/'], limit: 20, maxDepth: 2, outputFormat: ['markdown'] },
  'POST /scrapers/maps/jobs': { keywords: ['coffee'], locations: ['CUSTOM>Athens, Greece'], limit: 20 },
  'POST /scrape/batch/web': { urls: ['https://example.com/', 'https://example.org/'], outputFormat: ['markdown'] },
};
// The console's own files are not operations one tries.
const HIDDEN = (path) => path === '/console' || path.startsWith('/console/');

let doc = null;
let operations = [];
let current = null;
let lang = 'curl';
let openJob = () => {};

export async function loadOperations() {
  const r = await call('GET', '/openapi.json', { keyed: false });
  if (!r.ok || !r.json) throw new Error('GET /openapi.json answered ' + r.status);
  doc = r.json;
  operations = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (HIDDEN(path)) continue;
    // Parameters declared once for the path (a job's {id}) belong to each of its operations.
    const shared = methods.parameters || [];
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const own = op.parameters || [];
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.push({ method: method.toUpperCase(), path, op: { ...op, parameters }, keyed: (op.security ?? doc.security ?? []).length > 0 });
    }
  }
  // Grouped (the page fetch and jobs first, then each site, then the service's own), then by path.
  operations.sort((a, b) => groupRank(a.path) - groupRank(b.path) || group(a.path).localeCompare(group(b.path)) ||
    a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  return operations;
}

function group(path) {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'scrape' && parts.length > 2 && parts[1] !== 'batch') return 'scrape/' + parts[1];
  if (parts[0] === 'scrape' || parts[0] === 'screenshots') return 'page fetch';
  if (parts[0] === 'scrapers') return 'jobs';
  if (['account', 'user'].includes(parts[0])) return 'account';
  return 'service';
}

function groupRank(path) {
  const g = group(path);
  return g === 'page fetch' ? 0 : g === 'jobs' ? 1 : g.startsWith('scrape/') ? 2 : g === 'account' ? 3 : 4;
}

function renderList(filter) {
  const list = clear($('#op-list'));
  const f = filter.trim().toLowerCase();
  let last = null;
  for (const o of operations) {
    const name = o.method + ' ' + o.path;
    if (f && !(name.toLowerCase().includes(f) || (o.op.summary || '').toLowerCase().includes(f))) continue;
    const g = group(o.path);
    if (g !== last) {
      list.append(el('li', { class: 'op-group', text: g }));
      last = g;
    }
    const item = el('li', {},
      el('a', { href: '#playground', 'data-op': name, class: current === o ? 'active' : '',
        onclick: (e) => { e.preventDefault(); select(o); } },
        el('span', { class: 'm m-' + o.method.toLowerCase(), text: o.method }), ' ', o.path));
    item.title = o.op.summary || '';
    list.append(item);
  }
}

function select(o) {
  current = o;
  renderList($('#op-filter').value);
  const head = clear($('#op-head'));
  head.append(...[el('h2', {}, el('span', { class: 'm m-' + o.method.toLowerCase(), text: o.method }), ' ', el('code', { text: o.path })),
    el('p', { text: o.op.summary || '' }),
    o.op.description ? el('p', { class: 'muted', text: o.op.description }) : null,
    el('p', { class: 'muted', text: o.keyed ? 'Needs the API key (sent as x-api-key).' : 'No key needed.' })].filter(Boolean));
  const form = clear($('#op-form'));
  const params = parameterFields(o.op.parameters || [], doc);
  o.params = params;
  if (params.fields.length) form.append(el('h3', { text: 'Parameters' }), params.node);
  o.body = null;
  const schema = o.op.requestBody?.content?.['application/json']?.schema;
  if (schema) {
    const example = EXAMPLES[o.method + ' ' + o.path];
    o.body = bodyForm(schema, doc, Object.keys(example || {}));
    form.append(el('h3', { text: 'Body (JSON)' }), o.body.node);
    if (example) o.body.set(example);
  }
  if (!params.fields.length && !schema) form.append(el('p', { class: 'muted', text: 'No parameters.' }));
  $('#op-send').disabled = false;
  $('#op-status').textContent = '';
  clear($('#answer'));
  form.oninput = updateSnippet;
  form.onchange = updateSnippet;
  updateSnippet();
}

// The request the form describes: {method, path (with query), body}; throws naming a bad field.
function buildRequest(o) {
  let path = o.path;
  const query = new URLSearchParams();
  for (const f of o.params.fields) {
    const v = f.read();
    if (v === undefined) continue;
    if (f.in === 'path') {
      path = path.replace('{' + f.name + '}', encodeURIComponent(String(v)));
    } else if (f.in === 'query') {
      for (const item of Array.isArray(v) ? v : [v]) query.append(f.name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const qs = query.toString();
  return { method: o.method, path: path + (qs ? '?' + qs : ''), body: o.body ? o.body.read() : undefined, keyed: o.keyed };
}

function pyLiteral(value, indent = '') {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  const next = indent + '    ';
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return '[\n' + value.map((v) => next + pyLiteral(v, next)).join(',\n') + ',\n' + indent + ']';
  }
  const keys = Object.keys(value);
  if (!keys.length) return '{}';
  return '{\n' + keys.map((k) => next + JSON.stringify(k) + ': ' + pyLiteral(value[k], next)).join(',\n') + ',\n' + indent + '}';
}

function shellQuote(s) {
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

// The key is never written into the lines: they read it from GLEANER_API_KEY.
export function snippets(req, origin) {
  const url = origin + req.path;
  const curl = ['curl -sS' + (req.method === 'GET' ? '' : ' -X ' + req.method) + ' ' + shellQuote(url)];
  if (req.keyed) curl.push('  -H "x-api-key: $GLEANER_API_KEY"');
  if (req.body !== undefined) {
    curl.push("  -H 'content-type: application/json'");
    curl.push('  -d ' + shellQuote(JSON.stringify(req.body)));
  }
  const py = ['import os', 'import requests', ''];
  const args = [JSON.stringify(url)];
  if (req.keyed) args.push('headers={"x-api-key": os.environ["GLEANER_API_KEY"]}');
  if (req.body !== undefined) args.push('json=' + pyLiteral(req.body, '    '));
  py.push('response = requests.' + req.method.toLowerCase() + '(\n    ' + args.join(',\n    ') + ',\n)');
  py.push('print(response.status_code, response.json())');
  const headers = [];
  if (req.keyed) headers.push("'x-api-key': apiKey");
  if (req.body !== undefined) headers.push("'content-type': 'application/json'");
  const opts = ["method: '" + req.method + "'"];
  if (headers.length) opts.push('headers: { ' + headers.join(', ') + ' }');
  if (req.body !== undefined) opts.push('body: JSON.stringify(' + JSON.stringify(req.body, null, 2).replace(/\n/g, '\n  ') + ')');
  const js = (req.keyed ? "const apiKey = process.env.GLEANER_API_KEY; // or your key\n" : '') +
    'const response = await fetch(' + JSON.stringify(url) + ', {\n  ' + opts.join(',\n  ') + ',\n});\n' +
    'console.log(response.status, await response.json());';
  return { curl: curl.join(' \\\n'), python: py.join('\n'), fetch: js };
}

function updateSnippet() {
  const code = $('#snippet-code');
  if (!current) return;
  try {
    const req = buildRequest(current);
    code.textContent = snippets(req, location.origin)[lang];
    code.classList.remove('stale');
  } catch (e) {
    code.textContent = e.message;
    code.classList.add('stale');
  }
}

async function send() {
  const o = current;
  if (!o) return;
  const status = $('#op-status');
  let req;
  try {
    req = buildRequest(o);
  } catch (e) {
    status.textContent = e.message;
    status.className = 'error-text';
    return;
  }
  status.className = 'muted';
  status.textContent = 'sending...';
  $('#op-send').disabled = true;
  try {
    const result = await call(req.method, req.path, { body: req.body, keyed: req.keyed });
    status.textContent = '';
    clear($('#answer')).append(renderAnswer(result, { onJob: openJob }));
    // The balance shown beside the key may have changed.
    if (result.headers.get('x-credits-charged') !== null) document.dispatchEvent(new Event('gleaner:charged'));
  } catch (e) {
    status.className = 'error-text';
    status.textContent = 'no answer: ' + e.message;
  } finally {
    $('#op-send').disabled = false;
  }
}

export async function initPlayground({ onJob }) {
  openJob = onJob;
  $('#op-filter').addEventListener('input', (e) => renderList(e.target.value));
  $('#op-send').addEventListener('click', send);
  for (const b of document.querySelectorAll('.snippet-tabs [data-lang]')) {
    b.addEventListener('click', () => {
      lang = b.dataset.lang;
      for (const other of document.querySelectorAll('.snippet-tabs [data-lang]')) other.classList.toggle('active', other === b);
      updateSnippet();
    });
  }
  $('#snippet-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('#snippet-code').textContent);
      $('#snippet-copy').textContent = 'Copied';
    } catch {
      // Clipboard refused (not a secure context): select the text for a manual copy.
      getSelection().selectAllChildren($('#snippet-code'));
      $('#snippet-copy').textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => { $('#snippet-copy').textContent = 'Copy'; }, 1500);
  });
  try {
    await loadOperations();
    renderList('');
    const web = operations.find((o) => o.method === 'POST' && o.path === '/scrape/web');
    if (web) select(web);
  } catch (e) {
    $('#op-head').append(el('p', { class: 'error-text', text: 'Could not read the operations: ' + e.message }));
  }
}

export { resolve };
