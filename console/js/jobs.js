// The caller's jobs (GET /scrapers/jobs, newest first), kept current by polling while any is
// running: GET /scrapers/jobs/{id} for the opened job and its new rows from
// GET /scrapers/jobs/{id}/results, so a crawl's pages appear as they are stored. Polling, not
// server-sent events: docs/console.md says why. Cancel is DELETE; Delete rows (an ended job's)
// is DELETE .../results; downloads are the results' format=csv|ndjson, fetched with the key in a
// header and saved from a Blob.
import { call, errorLine } from './api.js';
import { $, clear, el, formatNumber, saveBlob } from './dom.js';
import { errorBox } from './answer.js';
import { jsonView } from './json_view.js';

const PAGE_SIZE = 20;
const POLL_MS = 1500;
const ROWS_PAGE = 100;
const RUNNING = new Set(['pending', 'in_progress']);

let page = 1;
let total = 0;
let timer = null;
let visible = false;
// The opened job: its id, the rows read so far and their error count.
let opened = null;

function progressText(job) {
  const p = job.progress || {};
  if (p.pagesFound !== undefined) return formatNumber(p.pagesDone) + ' of ' + formatNumber(p.pagesFound) + ' pages';
  if (p.pairsTotal !== undefined) return formatNumber(p.pairsDone) + ' of ' + formatNumber(p.pairsTotal) + ' searches';
  return '';
}

function progressBar(job) {
  const p = job.progress || {};
  const done = p.pagesDone ?? p.pairsDone ?? 0;
  const all = p.pagesFound ?? p.pairsTotal ?? 0;
  const bar = el('progress', { max: Math.max(all, 1), value: job.status === 'finished' ? Math.max(all, 1) : done });
  return el('div', { class: 'progress' }, bar, el('span', { class: 'muted', text: progressText(job) }));
}

function statusBadge(status) {
  const cls = status === 'finished' ? 'ok' : status === 'failed' ? 'bad' : RUNNING.has(status) ? 'run' : 'stop';
  return el('span', { class: 'badge ' + cls, 'data-status': status, text: status.replace('_', ' ') });
}

function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium' });
}

async function cancel(id) {
  const r = await call('DELETE', '/scrapers/jobs/' + encodeURIComponent(id));
  $('#jobs-status').textContent = r.ok ? 'stop asked for ' + id : errorLine(r);
  await refresh();
}

// An ended job's rows, deleted after the user confirms: they free the account's stored bytes.
async function deleteRows(id) {
  if (!window.confirm('Delete the rows of job ' + id + '? They cannot be read again.')) return;
  const r = await call('DELETE', '/scrapers/jobs/' + encodeURIComponent(id) + '/results');
  $('#jobs-status').textContent = r.ok ? 'rows deleted for ' + id : errorLine(r);
  if (r.ok && opened && opened.id === id) {
    opened.rows = [];
    opened.errors = 0;
    clear(opened.list);
  }
  await refresh();
}

async function download(id, format) {
  const r = await call('GET', '/scrapers/jobs/' + encodeURIComponent(id) + '/results?format=' + format, { as: 'blob' });
  if (!r.ok) {
    $('#jobs-status').textContent = errorLine(r);
    return;
  }
  saveBlob(r.blob, 'gleaner-job-' + id + (format === 'csv' ? '.csv' : '.ndjson'));
}

function jobRow(job) {
  const isOpen = opened && opened.id === job.id;
  return el('tr', { 'data-job': job.id, class: isOpen ? 'open' : '' },
    el('td', {}, el('a', { href: '#jobs', class: 'mono', text: job.id.slice(0, 8), title: job.id,
      onclick: (e) => { e.preventDefault(); openJob(job.id); } })),
    el('td', { text: job.kind }),
    el('td', {}, statusBadge(job.status), job.stopRequested ? el('span', { class: 'muted', text: ' stopping' }) : null),
    el('td', {}, progressBar(job)),
    el('td', { class: 'num', text: formatNumber(job.dataRowsCount) }),
    el('td', { class: 'num', title: isOpen ? null : 'open the job to count its error rows', text: isOpen ? formatNumber(opened.errors) : '-' }),
    el('td', { class: 'num', text: formatNumber(job.creditsSpent) }),
    el('td', { class: 'muted', text: when(job.createdAt) }),
    el('td', { class: 'actions' },
      RUNNING.has(job.status) && !job.stopRequested
        ? el('button', { type: 'button', class: 'secondary danger', text: 'Cancel', onclick: () => cancel(job.id) }) : null,
      job.resultsDeletedAt ? el('span', { class: 'muted', text: 'rows deleted' }) : [
        el('button', { type: 'button', class: 'secondary', text: 'CSV', onclick: () => download(job.id, 'csv') }),
        el('button', { type: 'button', class: 'secondary', text: 'NDJSON', onclick: () => download(job.id, 'ndjson') }),
        RUNNING.has(job.status) ? null
          : el('button', { type: 'button', class: 'secondary danger', text: 'Delete rows', onclick: () => deleteRows(job.id) })]));
}

function rowItem(row, index) {
  const title = row.url || row.title || row.name || ('row ' + (index + 1));
  const item = el('li', { class: row.error ? 'row-error' : '' });
  const head = el('div', { class: 'row-head' },
    el('span', { class: 'muted', text: String(index + 1) + '. ' }),
    row.url && /^https?:/.test(row.url) ? el('a', { href: row.url, target: '_blank', rel: 'noopener noreferrer nofollow', text: row.url }) : el('span', { text: title }),
    row.depth !== undefined ? el('span', { class: 'muted', text: ' depth ' + row.depth }) : null,
    row.statusCode !== undefined ? el('span', { class: 'muted', text: ' HTTP ' + row.statusCode }) : null,
    row.error ? el('span', { class: 'error-text', text: ' ' + row.error.code + ': ' + row.error.message }) : null);
  const more = el('details', {}, el('summary', { text: 'row' }), jsonView(row, 1));
  item.append(head, more);
  return item;
}

function renderDetail(job) {
  const box = clear($('#job-detail'));
  if (!opened) return;
  box.append(...[
    el('div', { class: 'row' },
      el('h2', {}, 'Job ', el('code', { text: job.id })),
      el('button', { type: 'button', class: 'secondary', text: 'Close', onclick: () => { opened = null; clear($('#job-detail')); refresh(); } })),
    el('div', { class: 'cards' },
      card('status', statusBadge(job.status)),
      card('progress', progressText(job) || '-'),
      card('rows', formatNumber(job.dataRowsCount)),
      card('errors', formatNumber(opened.errors)),
      card('credits', formatNumber(job.creditsSpent))),
    job.reason ? el('p', { class: 'muted', text: 'reason: ' + job.reason }) : null,
    el('h3', { text: (job.kind === 'crawler' ? 'Pages' : 'Rows') + ' as they arrive (' + opened.rows.length + ')' }),
    opened.list,
    el('details', {}, el('summary', { text: 'The job as GET /scrapers/jobs/{id} answers' }), jsonView(job, 1))].filter(Boolean));
}

function card(label, value) {
  return el('div', { class: 'card' }, el('div', { class: 'c-label', text: label }),
    el('div', { class: 'c-value', 'data-card': label }, value));
}

// Reads the opened job's rows stored since the last read.
async function readNewRows(id) {
  for (;;) {
    const have = opened.rows.length;
    const pageNo = Math.floor(have / ROWS_PAGE) + 1;
    const r = await call('GET', '/scrapers/jobs/' + encodeURIComponent(id) + '/results?limit=' + ROWS_PAGE + '&page=' + pageNo);
    if (!r.ok || !r.json || !opened || opened.id !== id) return;
    const fresh = r.json.data.slice(have % ROWS_PAGE);
    for (const row of fresh) {
      opened.list.append(rowItem(row, opened.rows.length));
      opened.rows.push(row);
      if (row.error) opened.errors += 1;
    }
    if (r.json.data.length < ROWS_PAGE || !fresh.length) return;
  }
}

async function refreshOpened() {
  if (!opened) return false;
  const id = opened.id;
  const r = await call('GET', '/scrapers/jobs/' + encodeURIComponent(id));
  if (!opened || opened.id !== id) return false;
  if (!r.ok) {
    clear($('#job-detail')).append(r.json && r.json.error ? errorBox(r.json.error, r.status) : el('p', { text: errorLine(r) }));
    return false;
  }
  await readNewRows(id);
  if (!opened || opened.id !== id) return false;
  renderDetail(r.json);
  return RUNNING.has(r.json.status);
}

// One refresh at a time (a second asked meanwhile runs after it): two at once would both append
// the same new rows.
let inFlight = null;
let again = false;
export function refresh() {
  if (inFlight) {
    again = true;
    return inFlight;
  }
  inFlight = refreshNow().finally(() => {
    inFlight = null;
    if (again) {
      again = false;
      refresh();
    }
  });
  return inFlight;
}

async function refreshNow() {
  const status = $('#jobs-status');
  const r = await call('GET', '/scrapers/jobs?page=' + page + '&limit=' + PAGE_SIZE);
  const body = clear($('#jobs-table tbody'));
  let running = false;
  if (!r.ok) {
    status.textContent = errorLine(r);
  } else {
    total = r.json.total;
    for (const job of r.json.jobs) {
      body.append(jobRow(job));
      running ||= RUNNING.has(job.status);
    }
    if (!r.json.jobs.length) body.append(el('tr', {}, el('td', { colspan: 9, class: 'muted', text: 'No jobs yet.' })));
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    $('#jobs-page').textContent = 'page ' + page + ' of ' + pages + ' (' + total + ' jobs)';
    $('#jobs-prev').disabled = page <= 1;
    $('#jobs-next').disabled = page >= pages;
    status.textContent = running ? 'updating while jobs run' : '';
  }
  running = (await refreshOpened()) || running;
  schedule(running);
}

function schedule(running) {
  clearTimeout(timer);
  timer = null;
  if (visible && running) timer = setTimeout(refresh, POLL_MS);
}

export function openJob(id) {
  if (!opened || opened.id !== id) opened = { id, rows: [], errors: 0, list: el('ol', { class: 'rows', id: 'job-rows' }) };
  return refresh();
}

export function showJobs(shown) {
  visible = shown;
  if (shown) refresh();
  else schedule(false);
}

export function initJobs() {
  $('#jobs-refresh').addEventListener('click', refresh);
  $('#jobs-prev').addEventListener('click', () => { page = Math.max(1, page - 1); refresh(); });
  $('#jobs-next').addEventListener('click', () => { page += 1; refresh(); });
}
