// A form from a JSON Schema (the service's own OpenAPI document): one field per property, typed;
// enums as choices, required marked, descriptions and limits shown beside. `read()` gives back
// only what was filled in, typed as the schema says, or throws naming the field that is wrong.
import { el } from './dom.js';

let fieldCount = 0;

// Follows a local $ref ("#/components/schemas/X").
export function resolve(schema, doc) {
  let s = schema || {};
  for (let n = 0; s.$ref && n < 10; n++) {
    s = s.$ref.slice(2).split('/').reduce((node, key) => (node ? node[key] : undefined), doc) || {};
  }
  return s;
}

function typeOf(schema) {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') || 'string';
  if (schema.type) return schema.type;
  if (schema.enum) return 'string';
  if (schema.properties) return 'object';
  return 'json';
}

function hint(schema) {
  const parts = [];
  if (schema.description) parts.push(schema.description);
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    parts.push(schema.minimum + ' to ' + schema.maximum);
  } else if (schema.minimum !== undefined) parts.push('at least ' + schema.minimum);
  else if (schema.maximum !== undefined) parts.push('at most ' + schema.maximum);
  if (schema.maxLength !== undefined) parts.push('up to ' + schema.maxLength + ' characters');
  if (schema.maxItems !== undefined) parts.push('up to ' + schema.maxItems + ' items');
  if (schema.default !== undefined) parts.push('default ' + JSON.stringify(schema.default));
  return parts.join(' \u00b7 ');
}

// One field: {node, read() -> value or undefined, set(value)}.
function field(name, schema, required, doc, depth) {
  schema = resolve(schema, doc);
  const id = 'f' + ++fieldCount;
  const type = typeOf(schema);
  const label = el('label', { for: id, class: 'f-name' }, name, required ? el('span', { class: 'req', title: 'required', text: ' *' }) : null,
    el('span', { class: 'f-type', text: ' ' + (type === 'array' ? 'list of ' + typeOf(resolve(schema.items, doc)) : type) }));
  const help = hint(schema) ? el('div', { class: 'f-help', text: hint(schema) }) : null;
  let input;
  let read;
  let set;

  if (type === 'object' && schema.properties && depth < 2) {
    const sub = objectFields(schema, doc, depth + 1);
    const box = el('fieldset', { class: 'f-object' }, el('legend', {}, label), help, sub.node);
    // An optional object left empty is not sent; once any of its fields is filled, its own
    // required fields are.
    const value = () => sub.read(name + '.', required);
    return { node: box, value, read: value, set: sub.set, name, required };
  }
  if (schema.enum && type !== 'array') {
    input = el('select', { id, name },
      el('option', { value: '', text: required ? 'choose...' : '(not sent)' }),
      schema.enum.map((v) => el('option', { value: JSON.stringify(v), text: String(v) })));
    read = () => (input.value === '' ? undefined : JSON.parse(input.value));
    set = (v) => { input.value = v === undefined ? '' : JSON.stringify(v); };
  } else if (type === 'boolean') {
    input = el('select', { id, name },
      el('option', { value: '', text: '(not sent)' }),
      el('option', { value: 'true', text: 'true' }),
      el('option', { value: 'false', text: 'false' }));
    read = () => (input.value === '' ? undefined : input.value === 'true');
    set = (v) => { input.value = v === undefined ? '' : String(v); };
  } else if (type === 'integer' || type === 'number') {
    input = el('input', { id, name, type: 'number', step: type === 'integer' ? '1' : 'any',
      min: schema.minimum, max: schema.maximum, placeholder: schema.default });
    read = () => {
      if (input.value.trim() === '') return undefined;
      const n = Number(input.value);
      if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) {
        throw new Error(name + ' must be ' + (type === 'integer' ? 'a whole number' : 'a number'));
      }
      return n;
    };
    set = (v) => { input.value = v === undefined ? '' : String(v); };
  } else if (type === 'array' && resolve(schema.items, doc).enum) {
    const items = resolve(schema.items, doc);
    const boxes = items.enum.map((v) => {
      const box = el('input', { type: 'checkbox', value: JSON.stringify(v), 'data-field': name });
      return { box, node: el('label', { class: 'chip-check' }, box, ' ' + v) };
    });
    input = el('div', { id, class: 'f-choices', role: 'group' }, boxes.map((b) => b.node));
    read = () => {
      const chosen = boxes.filter((b) => b.box.checked).map((b) => JSON.parse(b.box.value));
      return chosen.length ? chosen : undefined;
    };
    set = (v) => { for (const b of boxes) b.box.checked = Array.isArray(v) && v.includes(JSON.parse(b.box.value)); };
  } else if (type === 'array' && ['string', 'integer', 'number'].includes(typeOf(resolve(schema.items, doc)))) {
    const itemType = typeOf(resolve(schema.items, doc));
    input = el('textarea', { id, name, rows: 2, placeholder: 'one per line' });
    read = () => {
      const lines = input.value.split('\n').map((s) => s.trim()).filter(Boolean);
      if (!lines.length) return undefined;
      if (itemType === 'string') return lines;
      return lines.map((s) => {
        const n = Number(s);
        if (!Number.isFinite(n)) throw new Error(name + ': "' + s + '" is not a number');
        return n;
      });
    };
    set = (v) => { input.value = Array.isArray(v) ? v.join('\n') : ''; };
  } else if (type === 'string') {
    input = el('input', { id, name, type: 'text', spellcheck: 'false', placeholder: schema.default ?? (schema.format || '') });
    read = () => (input.value === '' ? undefined : input.value);
    set = (v) => { input.value = v === undefined ? '' : String(v); };
  } else {
    // Objects with free keys, lists of objects, choices of shapes: written as JSON.
    input = el('textarea', { id, name, rows: 3, class: 'mono', spellcheck: 'false', placeholder: 'JSON' });
    read = () => {
      if (input.value.trim() === '') return undefined;
      try {
        return JSON.parse(input.value);
      } catch (e) {
        throw new Error(name + ' is not valid JSON: ' + e.message);
      }
    };
    set = (v) => { input.value = v === undefined ? '' : JSON.stringify(v, null, 2); };
  }
  const node = el('div', { class: 'f-row' }, label, input, help);
  return {
    node,
    name,
    required,
    value: read,
    read: () => {
      const v = read();
      if (v === undefined && required) throw new Error(name + ' is required');
      return v;
    },
    set,
  };
}

// Fields in a grid; those not in `shown` (when given) folded under "more options", so that a long
// schema does not push Send and the answer out of sight.
function fieldGrid(fields, shown) {
  const main = fields.filter((f) => !shown || shown.has(f.name));
  const more = fields.filter((f) => shown && !shown.has(f.name));
  const grid = el('div', { class: 'f-fields' }, main.map((f) => f.node));
  if (!more.length) return grid;
  return el('div', {}, grid,
    el('details', { class: 'more' }, el('summary', { text: more.length + ' more optional ' + (more.length === 1 ? 'field' : 'fields') }),
      el('div', { class: 'f-fields' }, more.map((f) => f.node))));
}

function objectFields(schema, doc, depth, shown) {
  const required = new Set(schema.required || []);
  const names = Object.keys(schema.properties || {});
  // Required first, then in the document's (alphabetical) order.
  names.sort((a, b) => (required.has(b) - required.has(a)));
  const fields = names.map((n) => field(n, schema.properties[n], required.has(n), doc, depth));
  return {
    node: fieldGrid(fields, shown ? new Set([...required, ...shown]) : null),
    // The filled fields as an object (undefined when none is and `always` is false); throws
    // naming (after `prefix`) a required field left empty.
    read: (prefix = '', always = true) => {
      const out = {};
      for (const f of fields) {
        const v = f.value();
        if (v !== undefined) out[f.name] = v;
      }
      if (!Object.keys(out).length && !always) return undefined;
      const missing = fields.find((f) => f.required && out[f.name] === undefined);
      if (missing) throw new Error(prefix + missing.name + ' is required');
      return out;
    },
    set: (value) => { for (const f of fields) f.set(value ? value[f.name] : undefined); },
  };
}

// The form of a request body's schema; the fields not required and not in `shown` folded.
export function bodyForm(schema, doc, shown = []) {
  const s = resolve(schema, doc);
  if (typeOf(s) === 'object' && s.properties) {
    const sub = objectFields(s, doc, 0, shown);
    return { node: sub.node, read: () => sub.read('', true), set: sub.set };
  }
  const f = field('body', s, true, doc, 0);
  return f;
}

// The fields of an operation's parameters (query and path).
export function parameterFields(parameters, doc) {
  const fields = parameters.map((p) => {
    const schema = { ...resolve(p.schema, doc) };
    if (p.description && !schema.description) schema.description = p.description;
    const f = field(p.name, schema, !!p.required, doc, 0);
    f.in = p.in;
    return f;
  });
  // A site's search has a dozen filters: past a few optional ones, they are folded.
  const optional = fields.filter((f) => !parameters.find((p) => p.name === f.name).required);
  const shown = optional.length > 4 ? new Set(fields.filter((f) => !optional.includes(f)).map((f) => f.name)) : null;
  return { node: fieldGrid(fields, shown), fields };
}
