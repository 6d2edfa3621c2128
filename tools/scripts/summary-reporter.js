// Records what one Jest run counted, for `npm test` to add up over all its runs
// (tools/scripts/test.sh prints the one total line): with the options {project, tier} that
// jest.preset.js gives it, it writes tmp/jest-results/<project>.<tier>.json, a cached output of
// the Nx target, so a unit run restored from the cache still counts. Without them (a run of
// the root jest.config.js, `npx jest <paths>`) it prints the plain line itself.
//
// The end-to-end suite also counts the responses its contract check validated against the
// OpenAPI document: apps/api-e2e/src/support/contract-setup.ts writes one file per test file
// into the run's directory, which this reporter makes and announces in the environment before
// any test worker starts.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CONTRACT_DIR_ENV = 'CUSTODIAN_CONTRACT_DIR';
const RESULTS_DIR = path.join(__dirname, '..', '..', 'tmp', 'jest-results');

class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.project = options.project;
    this.tier = options.tier;
  }

  onRunStart() {
    this.contractDir = fs.mkdtempSync(path.join(os.tmpdir(), 'custodian-contract-'));
    process.env[CONTRACT_DIR_ENV] = this.contractDir;
  }

  onRunComplete(_contexts, results) {
    const counts = {
      passed: results.numPassedTests,
      // A test file that fails to load or whose hooks throw has no failed test of its own.
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      failures: failuresOf(results),
      contract: this.contractCounts(),
      slowest: slowestOf(results),
    };
    if (this.project && this.tier) {
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, `${this.project}.${this.tier}.json`);
      fs.writeFileSync(
        file,
        `${JSON.stringify({ project: this.project, tier: this.tier, ...counts })}\n`,
      );
      if (counts.contract) process.stdout.write(`${contractLine(counts.contract)}\n`);
      return;
    }
    const tail = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
    for (const line of counts.failures) process.stdout.write(`\nFAILED ${line}`);
    process.stdout.write(`\njest: ${counts.passed} passed, ${counts.failed} failed${tail}\n`);
    if (counts.contract) process.stdout.write(`${contractLine(counts.contract)}\n`);
  }

  /** The sum of the test files' counts, or null when no file recorded any (no e2e run). */
  contractCounts() {
    const dir = this.contractDir;
    if (!dir) return null;
    const totals = { validated: 0, notDescribed: 0 };
    let files = 0;
    try {
      for (const name of fs.readdirSync(dir)) {
        if (!name.endsWith('.json')) continue;
        const counts = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
        totals.validated += counts.validated ?? 0;
        totals.notDescribed += counts.notDescribed ?? 0;
        files++;
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      this.contractDir = undefined;
    }
    return files > 0 ? totals : null;
  }
}

/**
 * One line per failed test, or per test file that failed to run: its path, its name and the
 * first line of what went wrong. CI keeps only the end of a long log, where these are printed
 * again, so a failure that happens once in many runs still names itself.
 */
function failuresOf(results) {
  const root = path.join(__dirname, '..', '..');
  // What went wrong, in its first lines (the matcher, then expected and received).
  const gist = (text) =>
    String(text ?? '')
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0 && !line.startsWith('at '))
      .slice(0, 4)
      .join(' | ')
      .slice(0, 400);
  const lines = [];
  for (const file of results.testResults ?? []) {
    const where = path.relative(root, file.testFilePath);
    if (file.testExecError) lines.push(`${where}: ${gist(file.testExecError.message)}`);
    for (const test of file.testResults ?? []) {
      if (test.status !== 'failed') continue;
      lines.push(`${where} › ${test.fullName}: ${gist(test.failureMessages?.[0])}`);
    }
    if (!file.testExecError && file.failureMessage && file.numFailingTests === 0) {
      // A hook (beforeAll, afterAll) threw: no test of the file failed on its own.
      lines.push(`${where}: ${gist(file.failureMessage.replace(/^\s*●.*$/m, ''))}`);
    }
  }
  return lines;
}

/**
 * The run's slowest test files, `{file, seconds}`, slowest first: where CI's minutes go, read
 * off the end of any run's log (test-totals.js prints them).
 */
function slowestOf(results, count = 10) {
  const root = path.join(__dirname, '..', '..');
  return (results.testResults ?? [])
    .map((file) => ({
      file: path.relative(root, file.testFilePath),
      seconds: Math.round((file.perfStats.end - file.perfStats.start) / 100) / 10,
    }))
    .filter((file) => Number.isFinite(file.seconds))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
}

function contractLine({ validated, notDescribed }) {
  return (
    `contract: ${validated} responses validated against the OpenAPI document, ` +
    `${notDescribed} not described (skipped)`
  );
}

module.exports = SummaryReporter;
module.exports.contractLine = contractLine;
module.exports.RESULTS_DIR = RESULTS_DIR;
