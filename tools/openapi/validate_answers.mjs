// Validates the answers the end-to-end suites received (tests/support/answer_log.h: one JSON line
// {method, path, status, contentType, answer} per answer, in files *.jsonl of one directory)
// against the responses of docs/openapi.json, with Ajv (JSON Schema 2020-12, the dialect of
// OpenAPI 3.1).
//   node validate_answers.mjs <openapi.json> <answers directory>
// An answer fails when its route, method, status or content type is not in the document, or when
// its JSON body does not match the schema there; an answer of a path or method the document does
// not have (a test's unknown route, a 405) must be the error body. Exits 1 naming every failure,
// and when there is no answer at all.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const [docPath, dir] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(docPath, 'utf8'));

// The whole document is one schema resource, so that "#/components/..." references resolve;
// OpenAPI's own keywords (paths, operationId, ...) are not JSON Schema, hence strict off.
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(doc, 'openapi.json');
const pointer = (...parts) =>
  'openapi.json#/' + parts.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

// Path templates ("/scrapers/jobs/{id}") as patterns; a literal path wins over a template.
const templates = Object.keys(doc.paths).map((t) => ({
  template: t,
  literal: !t.includes('{'),
  re: new RegExp('^' + t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
}));
templates.sort((a, b) => Number(b.literal) - Number(a.literal));

function schemaOf(answer) {
  const found = templates.find((t) => t.re.test(answer.path));
  const json = (answer.contentType ?? '').startsWith('application/json');
  if (!found) {
    if (answer.status < 400 || !json) return { error: `${answer.path} is not in the document` };
    return { key: `(no route) ${answer.status}`, validate: ajv.getSchema(pointer('components', 'schemas', 'Error')) };
  }
  const method = answer.method.toLowerCase();
  const key = `${answer.method} ${found.template} ${answer.status}`;
  const op = doc.paths[found.template][method];
  if (!op) {
    // A method the route does not have (405), or a body refused before routing (413): the
    // document cannot list those, but the answer must still be the error body.
    if (answer.status < 400 || !json) return { key, error: 'the method is not in the document' };
    return { key: `(no such method) ${key}`, validate: ajv.getSchema(pointer('components', 'schemas', 'Error')) };
  }
  let response = op.responses[String(answer.status)];
  let at = ['paths', found.template, method, 'responses', String(answer.status)];
  if (!response) return { key, error: 'the status is not in the document' };
  if (response.$ref) {
    at = response.$ref.replace(/^#\//, '').split('/');
    response = at.reduce((node, part) => node[part], doc);
  }
  const type = (answer.contentType ?? '').split(';')[0].trim();
  if (!response.content?.[type]) return { key, error: `the document has no ${type || 'untyped'} body for it` };
  if (type !== 'application/json') return { key: `${key} ${type}` };
  return { key, validate: ajv.getSchema(pointer(...at, 'content', 'application/json', 'schema')) };
}

const answers = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (line.trim()) answers.push(JSON.parse(line));
  }
}
if (answers.length === 0) {
  console.error(`no answers in ${dir}: did the suites run with GLEANER_ANSWERS_DIR set?`);
  process.exit(1);
}

const counts = new Map();
const failures = new Map();
for (const a of answers) {
  const { key = `${a.method} ${a.path} ${a.status}`, validate, error } = schemaOf(a);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  let why = error;
  if (!why && validate && !validate(a.answer)) {
    why = validate.errors
      .map((e) => `${e.instancePath || '/'} ${e.message}` +
        (e.params?.additionalProperty ? `: "${e.params.additionalProperty}"` : ''))
      .join('; ');
  }
  if (why) {
    const f = failures.get(`${key}: ${why}`) ?? { n: 0, example: a };
    f.n += 1;
    failures.set(`${key}: ${why}`, f);
  }
}

for (const [key, n] of [...counts].sort()) console.log(`${String(n).padStart(5)}  ${key}`);
const answered = new Set([...counts.keys()].map((k) => k.split(' ').slice(0, 2).join(' ')));
for (const [path, ops] of Object.entries(doc.paths)) {
  for (const method of Object.keys(ops).filter((m) => m !== 'parameters')) {
    if (!answered.has(`${method.toUpperCase()} ${path}`)) {
      console.log(`not answered by any suite: ${method.toUpperCase()} ${path}`);
    }
  }
}
for (const [why, { n, example }] of failures) {
  const shown = 'answer' in example ? JSON.stringify(example.answer).slice(0, 400) : example.contentType;
  console.error(`FAIL (${n}×) ${why}\n  e.g. ${shown}`);
}
const failed = [...failures.values()].reduce((s, f) => s + f.n, 0);
console.log(`${answers.length - failed} of ${answers.length} answers match the document`);
process.exit(failed ? 1 : 0);
