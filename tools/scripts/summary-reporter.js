// Prints one plain closing line that any CI can read: "jest: N passed, N failed".
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(
      `\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`,
    );
  }
}
module.exports = SummaryReporter;
