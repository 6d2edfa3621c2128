// End-to-end tests (*.e2e-spec.ts) through the built apps: `nx e2e api-e2e`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'e2e', {
  // Every response of the gateway's API is checked against its OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/src/support/contract-setup.ts'],
  // Tests and hooks drive real processes (start, stop, a CLI run): on a loaded CI machine that
  // is seconds, past jest's 5 s default, and a hook timing out fails a whole file.
  testTimeout: 20_000,
});
