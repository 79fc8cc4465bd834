// The account from GET /account: balance, allowance, period end, and this period's requests and
// credits per endpoint as a bar chart (uPlot, console/vendor/); the errors the account's keys were
// answered with, by code and route.
import { call, errorLine } from './api.js';
import { $, clear, el, formatNumber } from './dom.js';

let chart = null;

function card(label, value, id) {
  return el('div', { class: 'card' }, el('div', { class: 'c-label', text: label }),
    el('div', { class: 'c-value', id, text: value }));
}

function shortName(endpoint) {
  return endpoint.length > 22 ? endpoint.slice(0, 21) + '\u2026' : endpoint;
}

function drawChart(endpoints) {
  const box = clear($('#usage-chart'));
  if (chart) { chart.destroy(); chart = null; }
  box.dataset.points = String(endpoints.length);
  box.dataset.requests = endpoints.map((e) => e.requests).join(',');
  box.dataset.credits = endpoints.map((e) => e.credits).join(',');
  if (!endpoints.length) {
    box.append(el('p', { class: 'muted', text: 'Nothing used yet this period.' }));
    return;
  }
  const names = endpoints.map((e) => e.endpoint);
  const xs = names.map((_, i) => i);
  const bars = (align) => uPlot.paths.bars({ size: [0.35, 60], align });
  const width = Math.max(320, Math.min(box.clientWidth || 900, 1100));
  chart = new uPlot({
    width,
    height: 320,
    padding: [16, 16, 0, 8],
    legend: { show: true },
    cursor: { points: { show: false } },
    scales: { x: { time: false, range: [-0.6, names.length - 0.4] }, requests: { range: (u, min, max) => [0, Math.max(1, max) * 1.1] },
      credits: { range: (u, min, max) => [0, Math.max(1, max) * 1.1] } },
    axes: [
      { splits: () => xs, values: (u, splits) => splits.map((i) => shortName(names[i] ?? '')), rotate: -30, size: 90, gap: 4 },
      { scale: 'requests', label: 'requests', size: 60 },
      { scale: 'credits', label: 'credits', side: 1, grid: { show: false }, size: 60 },
    ],
    series: [
      { label: 'endpoint', value: (u, i) => (i === null || names[i] === undefined ? '' : names[i]) },
      { label: 'requests', scale: 'requests', fill: 'rgba(37, 99, 235, 0.75)', stroke: '#2563eb', width: 1, paths: bars(-1), points: { show: false } },
      { label: 'credits', scale: 'credits', fill: 'rgba(234, 88, 12, 0.75)', stroke: '#ea580c', width: 1, paths: bars(1), points: { show: false } },
    ],
  }, [xs, endpoints.map((e) => e.requests), endpoints.map((e) => e.credits)], box);
}

function renderErrors(errors) {
  const body = clear($('#errors-table tbody'));
  const rows = [...errors].sort((a, b) => b.requests - a.requests || a.code.localeCompare(b.code));
  for (const e of rows) {
    body.append(el('tr', {}, el('td', {}, el('code', { text: e.code })), el('td', { class: 'num', text: formatNumber(e.requests) }),
      el('td', { class: 'muted', text: e.route })));
  }
  if (!rows.length) body.append(el('tr', {}, el('td', { colspan: 3, class: 'muted', text: 'No error this period.' })));
}

export async function refreshUsage() {
  const cards = clear($('#usage-cards'));
  const r = await call('GET', '/account');
  if (!r.ok) {
    cards.append(el('p', { class: 'error-text', text: errorLine(r) }));
    drawChart([]);
    renderErrors([]);
    return;
  }
  const a = r.json;
  const end = new Date(a.periodEnd);
  cards.append(
    card('account', a.account.name + ' (#' + a.account.id + ')'),
    card('balance', formatNumber(a.balance) + ' credits', 'usage-balance'),
    card('allowance', formatNumber(a.allowance) + ' per period'),
    card('period ends', end.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })),
    card('requests', formatNumber(a.usage.requests)),
    card('credits used', formatNumber(a.usage.credits)),
    card('concurrency limit', formatNumber(a.concurrencyLimit)));
  const endpoints = [...a.usage.endpoints].sort((x, y) => y.credits - x.credits || y.requests - x.requests);
  drawChart(endpoints);
  const body = clear($('#usage-table tbody'));
  for (const e of endpoints) {
    body.append(el('tr', {}, el('td', {}, el('code', { text: e.endpoint })), el('td', { class: 'num', text: formatNumber(e.requests) }),
      el('td', { class: 'num', text: formatNumber(e.credits) })));
  }
  renderErrors(a.usage.errors || []);
}
