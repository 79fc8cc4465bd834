// JSON as a tree folded by level: objects and arrays are <details>, open down to `openDepth`.
import { el } from './dom.js';

function scalar(value) {
  if (value === null) return el('span', { class: 'j-null', text: 'null' });
  switch (typeof value) {
    case 'string': return el('span', { class: 'j-str', text: JSON.stringify(value) });
    case 'number': return el('span', { class: 'j-num', text: String(value) });
    case 'boolean': return el('span', { class: 'j-bool', text: String(value) });
    default: return el('span', { text: String(value) });
  }
}

function summary(value) {
  if (Array.isArray(value)) return '[' + value.length + (value.length === 1 ? ' item]' : ' items]');
  const n = Object.keys(value).length;
  return '{' + n + (n === 1 ? ' key}' : ' keys}');
}

function node(key, value, depth, openDepth) {
  const label = key === undefined ? null : el('span', { class: 'j-key', text: key + ': ' });
  if (value === null || typeof value !== 'object') {
    return el('div', { class: 'j-leaf' }, label, scalar(value));
  }
  const details = el('details', { class: 'j-node' });
  details.open = depth < openDepth;
  details.append(el('summary', {}, label, el('span', { class: 'j-sum', text: summary(value) })));
  const body = el('div', { class: 'j-body' });
  // Children are built when first opened: a crawl's thousand rows cost nothing until looked at.
  const fill = () => {
    if (body.childElementCount) return;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [k, v] of entries) body.append(node(k, v, depth + 1, openDepth));
  };
  if (details.open) fill();
  details.addEventListener('toggle', fill);
  details.append(body);
  return details;
}

export function jsonView(value, openDepth = 2) {
  return el('div', { class: 'json' }, node(undefined, value, 0, openDepth));
}
