// An answer as a person would rather read it: the error's code and message; the page's markdown
// rendered, its screenshot as an image, its links and e-mails as lists; a job with a link to
// watch it; then the whole JSON, folded by level.
import { el } from './dom.js';
import { jsonView } from './json_view.js';
import { renderMarkdown } from './markdown.js';

// A screenshot's signed URL names the service's public address, which may not be the one this
// page was opened at: shown from this origin, the path and signature are what count.
export function sameOriginImage(url) {
  if (typeof url !== 'string') return null;
  if (url.startsWith('data:image/')) return url;
  try {
    const u = new URL(url, location.href);
    if (!u.pathname.startsWith('/screenshots/')) return null;
    return u.pathname + u.search;
  } catch {
    return null;
  }
}

function section(title, ...content) {
  return el('section', { class: 'a-part' }, el('h3', { text: title }), ...content);
}

function linkList(items, cls) {
  const list = el('ol', { class: cls });
  for (const item of items) {
    const href = /^https?:\/\//i.test(item) ? item : null;
    list.append(el('li', {}, href ? el('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow', text: item }) : item));
  }
  return list;
}

export function errorBox(error, status) {
  return el('div', { class: 'error-box', role: 'alert' },
    el('div', { class: 'e-code' }, el('strong', { text: error.code || 'error' }), status ? ' (HTTP ' + status + ')' : ''),
    el('div', { class: 'e-msg', text: error.message || '' }),
    error.parameter ? el('div', { class: 'e-more', text: 'parameter: ' + error.parameter }) : null,
    error.step !== undefined ? el('div', { class: 'e-more', text: 'step: ' + error.step }) : null);
}

// `result` from api.call(); `onJob(id)` opens a job in the Jobs screen.
export function renderAnswer(result, { onJob } = {}) {
  const out = el('div', { class: 'answer' });
  const charged = result.headers.get('x-credits-charged');
  const requestId = result.headers.get('x-request-id');
  const badge = el('span', { class: 'badge ' + (result.ok ? 'ok' : 'bad'), text: String(result.status) });
  const meta = el('div', { class: 'a-meta' }, badge,
    el('span', { text: result.ms + ' ms' }),
    el('span', { class: 'credits', id: 'answer-credits',
      text: charged !== null ? 'credits charged: ' + charged : result.ok ? 'nothing charged' : 'nothing charged (failed)' }),
    requestId ? el('span', { class: 'muted', text: 'request ' + requestId }) : null);
  out.append(meta);

  const body = result.json;
  if (body && body.error) out.append(errorBox(body.error, result.status));

  if (result.blob) {
    const url = URL.createObjectURL(result.blob);
    out.append(section('Image', el('img', { src: url, class: 'shot', alt: 'answer image' })));
    return out;
  }
  if (!body) {
    out.append(section('Body', el('pre', { class: 'raw', text: result.text || '(empty)' })));
    return out;
  }

  if (body.id && body.kind && body.status && onJob) {
    out.append(section('Job',
      el('p', {}, 'Job ', el('code', { text: body.id }), ' is ', el('strong', { text: body.status }), '. ',
        el('button', { type: 'button', class: 'secondary', id: 'answer-watch-job', onclick: () => onJob(body.id), text: 'Watch it in Jobs' }))));
  }
  if (typeof body.markdown === 'string') {
    out.append(section('Markdown (rendered)', el('div', { id: 'answer-markdown' }, renderMarkdown(body.markdown))));
  }
  const shot = sameOriginImage(body.screenshot);
  if (shot) {
    out.append(section('Screenshot', el('img', { id: 'answer-screenshot', class: 'shot', src: shot, alt: 'screenshot of the page' })));
  }
  if (Array.isArray(body.extractedLinks)) {
    out.append(section('Links (' + body.extractedLinks.length + ')', linkList(body.extractedLinks, 'links')));
  }
  if (Array.isArray(body.extractedEmails)) {
    out.append(section('E-mails (' + body.extractedEmails.length + ')', linkList(body.extractedEmails, 'emails')));
  }
  if (typeof body.text === 'string') {
    out.append(section('Text', el('pre', { class: 'raw', text: body.text })));
  }
  out.append(section('JSON', jsonView(body, 2)));
  return out;
}
