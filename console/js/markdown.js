// A small markdown renderer of our own, for the `markdown` of an answer: it builds DOM nodes and
// sets text only through textContent, so no HTML in the page's markdown is ever parsed. Covers
// what gleaner's converter writes (docs/content.md): headings, paragraphs, lists, block quotes,
// fenced code, tables, rules, emphasis, inline code, links. Images are shown as links: the
// console loads no image from another host (its Content-Security-Policy would refuse it).
import { el } from './dom.js';

const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'];

function safeHref(href) {
  try {
    const url = new URL(href, 'http://relative.invalid/');
    if (!SAFE_SCHEMES.includes(url.protocol)) return null;
    return url.host === 'relative.invalid' ? null : url.href;
  } catch {
    return null;
  }
}

// Inline text: `code`, **strong**, *em* / _em_, [text](url), ![alt](url), <autolinks>.
const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|!\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)|\[((?:[^\]\\]|\\.)*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|\b_([^_\s][^_]*)_\b|<(https?:\/\/[^>\s]+)>/;

export function inline(text, parent) {
  let rest = text;
  while (rest.length) {
    const m = INLINE.exec(rest);
    if (!m) {
      parent.append(unescape(rest));
      break;
    }
    if (m.index) parent.append(unescape(rest.slice(0, m.index)));
    if (m[1]) {
      parent.append(el('code', { text: m[2] }));
    } else if (m[3] !== undefined) {
      const href = safeHref(m[4]);
      const label = '[image' + (m[3] ? ': ' + m[3] : '') + ']';
      parent.append(href ? link(href, label) : label);
    } else if (m[5] !== undefined) {
      const href = safeHref(m[6]);
      const a = href ? link(href) : el('span');
      inline(m[5], a);
      parent.append(a);
    } else if (m[7] !== undefined || m[8] !== undefined) {
      const strong = el('strong');
      inline(m[7] ?? m[8], strong);
      parent.append(strong);
    } else if (m[9] !== undefined || m[10] !== undefined) {
      const em = el('em');
      inline(m[9] ?? m[10], em);
      parent.append(em);
    } else if (m[11]) {
      parent.append(link(m[11], m[11]));
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return parent;
}

function unescape(text) {
  // CommonMark: a backslash before any ASCII punctuation stands for that character.
  return text.replace(/\\([!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~])/g, '$1');
}

function link(href, label) {
  return el('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow', text: label });
}

function splitRow(line) {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim());
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED = /^(\s*)(\d+)[.)]\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function renderMarkdown(source) {
  const root = el('div', { class: 'markdown' });
  const lines = String(source).replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    let m;
    if ((m = FENCE.exec(line))) {
      const close = m[1];
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(close); i++) code.push(lines[i]);
      i++;
      const c = el('code', { text: code.join('\n') });
      if (m[2]) c.dataset.lang = m[2];
      root.append(el('pre', {}, c));
      continue;
    }
    if ((m = HEADING.exec(line))) {
      root.append(inline(m[2], el('h' + m[1].length)));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      root.append(el('hr'));
      i++;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      const table = el('table');
      const head = el('tr');
      for (const cell of splitRow(line)) head.append(inline(cell, el('th')));
      table.append(el('thead', {}, head));
      const body = el('tbody');
      for (i += 2; i < lines.length && lines[i].includes('|') && lines[i].trim(); i++) {
        const tr = el('tr');
        for (const cell of splitRow(lines[i])) tr.append(inline(cell, el('td')));
        body.append(tr);
      }
      table.append(body);
      root.append(table);
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]); i++) quoted.push(lines[i].replace(/^\s*>\s?/, ''));
      const q = renderMarkdown(quoted.join('\n'));
      root.append(el('blockquote', {}, ...q.childNodes));
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const ordered = !BULLET.test(line);
      const list = el(ordered ? 'ol' : 'ul');
      for (; i < lines.length; i++) {
        const b = BULLET.exec(lines[i]) || ORDERED.exec(lines[i]);
        if (b) {
          list.append(inline(b[b.length - 1], el('li')));
        } else if (lines[i].trim() && /^\s{2,}/.test(lines[i]) && list.lastChild) {
          list.lastChild.append(' ');
          inline(lines[i].trim(), list.lastChild);
        } else {
          break;
        }
      }
      root.append(list);
      continue;
    }
    const para = [];
    for (; i < lines.length && lines[i].trim() && !HEADING.test(lines[i]) && !FENCE.test(lines[i]) &&
           !BULLET.test(lines[i]) && !/^\s*>/.test(lines[i]); i++) {
      para.push(lines[i].trim());
    }
    const p = el('p');
    para.forEach((text, n) => {
      if (n) p.append(el('br'));
      inline(text, p);
    });
    root.append(p);
  }
  return root;
}
