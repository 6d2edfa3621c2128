// Adds up the counts every Jest run of `npm test` recorded (tools/scripts/summary-reporter.js)
// and prints the contract line of the end-to-end run, each failed test on a line of its own, then
// one plain closing line for any CI:
// "jest: N passed, N failed[, N skipped]". Exits 1 when a test failed or when Nx, whose exit
// status is the argument, failed a task (a build, or a Jest run that could not start).
const fs = require('node:fs');
const path = require('node:path');
const { RESULTS_DIR, contractLine } = require('./summary-reporter.js');

const files = fs.existsSync(RESULTS_DIR)
  ? fs.readdirSync(RESULTS_DIR).filter((name) => name.endsWith('.json'))
  : [];
const totals = { passed: 0, failed: 0, skipped: 0 };
const contract = { validated: 0, notDescribed: 0 };
const failures = [];
const slowest = [];
let contractRuns = 0;
for (const name of files.sort()) {
  const run = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, name), 'utf8'));
  totals.passed += run.passed;
  totals.failed += run.failed;
  totals.skipped += run.skipped;
  failures.push(...(run.failures ?? []));
  slowest.push(...(run.slowest ?? []));
  if (run.contract) {
    contract.validated += run.contract.validated;
    contract.notDescribed += run.contract.notDescribed;
    contractRuns++;
  }
}

console.log(`\n${files.length} Jest runs (${files.map((name) => name.slice(0, -5)).join(', ')})`);
if (contractRuns > 0) console.log(contractLine(contract));
// Where the minutes went: the slowest test files of every run, for whoever trims CI next.
slowest.sort((a, b) => b.seconds - a.seconds);
if (slowest.length > 0) {
  console.log('slowest test files:');
  for (const { file, seconds } of slowest.slice(0, 12)) console.log(`  ${seconds} s  ${file}`);
}
const nxStatus = Number(process.argv[2] ?? 0);
if (nxStatus !== 0 && totals.failed === 0) {
  console.log(`nx: a task failed (exit ${nxStatus}) without failing a test: see its output above`);
}
// Again at the end, where a CI log cut to its last lines still shows them.
for (const line of failures) console.log(`FAILED ${line}`);
const tail = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
console.log(`jest: ${totals.passed} passed, ${totals.failed} failed${tail}`);
process.exit(totals.failed > 0 || nxStatus !== 0 ? 1 : 0);
