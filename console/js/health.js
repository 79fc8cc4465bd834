// This node's pool from GET /health, every 2 s while the screen is open, sent with the key when
// one is set (the answer then also lists each browser); and the node's error answers by route and
// status from GET /metrics (no key).
import { call } from './api.js';
import { $, clear, el, formatNumber } from './dom.js';

const POLL_MS = 2000;
let timer = null;
let visible = false;

function card(label, value) {
  return el('div', { class: 'card' }, el('div', { class: 'c-label', text: label }),
    el('div', { class: 'c-value', 'data-card': label, text: value }));
}

async function refresh() {
  clearTimeout(timer);
  let r;
  try {
    r = await call('GET', '/health');
  } catch (e) {
    $('#health-status').textContent = 'no answer: ' + e.message;
    if (visible) timer = setTimeout(refresh, POLL_MS);
    return;
  }
  const h = r.json || {};
  const pool = h.pool || {};
  const status = $('#health-status');
  clear(status).append(el('span', { class: 'badge ' + (h.status === 'ok' ? 'ok' : 'bad'), id: 'health-badge', text: h.status || String(r.status) }),
    el('span', { class: 'muted', text: ' as of ' + new Date().toLocaleTimeString('en-GB') }));
  clear($('#health-cards')).append(
    card('browsers', formatNumber(pool.processes)),
    card('busy pages', formatNumber(pool.busyPages)),
    card('free pages', formatNumber(pool.freePages)),
    card('pages served', formatNumber(pool.pagesServed)),
    card('restarts', formatNumber(pool.restarts)),
    card('recycles', formatNumber(pool.recycles)));
  const table = $('#health-browsers');
  const body = clear(table.querySelector('tbody'));
  table.hidden = !Array.isArray(pool.browsers);
  for (const b of pool.browsers || []) {
    body.append(el('tr', {}, el('td', { text: String(b.pid) }), el('td', { text: b.ready ? 'yes' : 'no' }),
      el('td', { text: b.draining ? 'yes' : 'no' }), el('td', { class: 'num', text: formatNumber(b.busyPages) }),
      el('td', { class: 'num', text: formatNumber(b.warmPages) }), el('td', { class: 'num', text: formatNumber(b.pagesServed) })));
  }
  $('#health-browsers-title').hidden = table.hidden;
  await refreshErrors();
  if (visible) timer = setTimeout(refresh, POLL_MS);
}

// `name{a="x",b="y"} 12` lines of the Prometheus text: [{labels, value}] of family `name`.
export function samples(text, name) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    const close = line.lastIndexOf('}');
    const labels = {};
    if (close > 0) {
      for (const m of line.slice(name.length + 1, close).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[m[1]] = m[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
      }
    }
    out.push({ labels, value: Number(line.slice(close > 0 ? close + 1 : name.length).trim()) });
  }
  return out;
}

async function refreshErrors() {
  const r = await call('GET', '/metrics', { keyed: false });
  const body = clear($('#health-errors tbody'));
  const admission = clear($('#health-admission'));
  if (!r.ok) {
    body.append(el('tr', {}, el('td', { colspan: 3, class: 'error-text', text: 'GET /metrics answered ' + r.status })));
    return;
  }
  const errors = samples(r.text, 'gleaner_http_requests_total')
    .filter((s) => Number(s.labels.status) >= 400 && s.value > 0)
    .sort((a, b) => b.value - a.value);
  for (const s of errors) {
    body.append(el('tr', {}, el('td', {}, el('code', { text: s.labels.method + ' ' + (s.labels.route || '(no route)') })),
      el('td', { text: s.labels.status }), el('td', { class: 'num', text: formatNumber(s.value) })));
  }
  if (!errors.length) body.append(el('tr', {}, el('td', { colspan: 3, class: 'muted', text: 'None.' })));
  for (const s of samples(r.text, 'gleaner_admission_refused_total')) {
    admission.append(card('refused: ' + s.labels.reason.replace(/_/g, ' '), formatNumber(s.value)));
  }
}

export function showHealth(shown) {
  visible = shown;
  clearTimeout(timer);
  if (shown) refresh();
}
