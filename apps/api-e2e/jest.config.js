module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-e2e',
  rootDir: __dirname,
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/src/**/*.integration-spec.ts',
    '<rootDir>/src/**/*.e2e-spec.ts',
  ],
  // Every response of the gateway's API is checked against its OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/src/support/contract-setup.ts'],
};
