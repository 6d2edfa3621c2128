// Prints one plain closing line that any CI can read: "jest: N passed, N failed", and after it,
// when the end-to-end suite ran, the count of responses its contract check validated against
// the OpenAPI document (apps/api-e2e/src/support/contract-setup.ts writes one file per test
// file into the run's directory, which this reporter makes and announces in the environment
// before any test worker starts).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CONTRACT_DIR_ENV = 'CUSTODIAN_CONTRACT_DIR';

class SummaryReporter {
  onRunStart() {
    this.contractDir = fs.mkdtempSync(path.join(os.tmpdir(), 'custodian-contract-'));
    process.env[CONTRACT_DIR_ENV] = this.contractDir;
  }

  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(
      `\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`,
    );
    const contract = this.contractCounts();
    if (contract) {
      process.stdout.write(
        `contract: ${contract.validated} responses validated against the OpenAPI document, ` +
          `${contract.notDescribed} not described (skipped)\n`,
      );
    }
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
module.exports = SummaryReporter;
