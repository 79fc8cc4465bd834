// Prints results.json (written by run.js) as the Markdown table of docs/stealth.md.
'use strict';
const results = require('./results.json');
const tools = Object.keys(results);
const checks = [];
for (const t of tools) for (const c of Object.keys(results[t])) if (!checks.includes(c)) checks.push(c);
const cell = (r) => !r ? 'n/a' : r.pass === null ? '–' : r.pass ? 'pass' : '**FAIL**';
console.log('| check | ' + tools.join(' | ') + ' |');
console.log('|---|' + tools.map(() => '---').join('|') + '|');
for (const c of checks) console.log('| ' + c + ' | ' + tools.map((t) => cell(results[t][c])).join(' | ') + ' |');
