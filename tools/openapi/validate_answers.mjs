// Validates answers against the response schemas of docs/openapi.json with Ajv (JSON Schema
// 2020-12, the dialect of OpenAPI 3.1).
//   node validate_answers.mjs <openapi.json> <answers.json>
// answers.json: [{"path": "/scrape/...", "method": "get", "status": "200", "case": name,
// "answer": {...}} | {"path", "case", "notCovered": why}]. Exits 1 naming every answer that does not match, and when there is none.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const [docPath, answersPath] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(docPath, 'utf8'));
const answers = JSON.parse(readFileSync(answersPath, 'utf8'));

// The whole document is one schema resource, so that "#/components/schemas/..." references
// resolve; OpenAPI's own keywords (paths, operationId, ...) are not JSON Schema, hence strict off.
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(doc, 'openapi.json');

let failed = 0;
const covered = answers.filter((a) => !('notCovered' in a));
for (const a of answers.filter((a) => 'notCovered' in a)) {
  console.log(`not covered: ${a.path} (${a.case}): ${a.notCovered}`);
}
for (const a of covered) {
  const pointer = ['paths', a.path, a.method, 'responses', a.status, 'content',
    'application/json', 'schema'].map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1'));
  const validate = ajv.getSchema('openapi.json#/' + pointer.join('/'));
  if (!validate) {
    console.error(`${a.method} ${a.path} ${a.status}: no schema in the document`);
    ++failed;
  } else if (!validate(a.answer)) {
    console.error(`${a.method} ${a.path} (${a.case}): ${ajv.errorsText(validate.errors)}`);
    ++failed;
  }
}
if (covered.length === 0) {
  console.error('no answers to validate');
  process.exit(1);
}
console.log(`${covered.length - failed} of ${covered.length} answers match the document`);
process.exit(failed ? 1 : 0);
