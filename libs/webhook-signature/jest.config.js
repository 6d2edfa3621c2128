module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'webhook-signature',
  rootDir: __dirname,
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/src/**/*.integration-spec.ts',
    '<rootDir>/src/**/*.e2e-spec.ts',
  ],
};
