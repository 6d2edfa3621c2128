// `npm test` runs every project: unit (*.spec.ts), integration (*.integration-spec.ts, real
// Postgres/Redis/RabbitMQ) and end-to-end (*.e2e-spec.ts, HTTP through the running apps).
module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/tools/*/jest.config.js',
  ],
  reporters: ['default', '<rootDir>/tools/scripts/summary-reporter.js'],
};
