// The console's screens, switched by the location's hash, and the key form.
import { apiKey, call, setApiKey } from './api.js';
import { $ } from './dom.js';
import { showHealth } from './health.js';
import { initJobs, openJob, showJobs } from './jobs.js';
import { initPlayground } from './playground.js';
import { refreshUsage } from './usage.js';

const TABS = ['playground', 'jobs', 'usage', 'health'];

function show(tab) {
  if (!TABS.includes(tab)) tab = 'playground';
  for (const t of TABS) {
    document.getElementById(t).hidden = t !== tab;
    document.querySelector('#tabs [data-tab="' + t + '"]').classList.toggle('active', t === tab);
  }
  showJobs(tab === 'jobs');
  showHealth(tab === 'health');
  if (tab === 'usage') refreshUsage();
  document.body.dataset.screen = tab;
}

function currentTab() {
  return location.hash.replace(/^#/, '') || 'playground';
}

async function checkKey() {
  const state = $('#key-state');
  const has = !!apiKey();
  // With a key set, the form shrinks to who is signed in and a way to forget the key.
  $('#key-forget').hidden = !has;
  $('#key-input').hidden = has;
  $('#key-save').hidden = has;
  $('#key-label').hidden = has;
  if (!has) {
    state.textContent = 'no key yet';
    state.className = 'muted';
    return;
  }
  const r = await call('GET', '/account');
  if (r.ok) {
    state.textContent = r.json.account.name + ': ' + r.json.balance.toLocaleString('en') + ' credits';
    state.title = 'the key is kept in this tab only (sessionStorage)';
    state.className = 'ok-text';
  } else {
    state.textContent = r.json && r.json.error ? r.json.error.message : 'key refused (' + r.status + ')';
    state.className = 'error-text';
  }
  document.body.dataset.key = r.ok ? 'valid' : 'invalid';
}

function init() {
  $('#key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const value = $('#key-input').value.trim();
    if (!value) return;
    setApiKey(value);
    $('#key-input').value = '';
    checkKey().then(() => show(currentTab()));
  });
  $('#key-forget').addEventListener('click', () => {
    setApiKey('');
    delete document.body.dataset.key;
    checkKey();
  });
  window.addEventListener('hashchange', () => show(currentTab()));
  document.addEventListener('gleaner:charged', () => checkKey());
  initJobs();
  initPlayground({
    onJob: (id) => {
      location.hash = '#jobs';
      openJob(id);
    },
  }).then(() => { document.body.dataset.ready = 'yes'; });
  checkKey();
  show(currentTab());
}

init();
