// End-to-end tests (*.e2e-spec.ts) through the built apps: `nx e2e api-e2e`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'e2e', {
  // Every response of the gateway's API is checked against its OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/src/support/contract-setup.ts'],
});
