// The console's tests: `nx test console`. Unit tests (*.spec.ts) of its pure code and of its build
// scripts run in Node; component tests (*.spec.tsx) render components with Testing Library in
// jsdom, which each such file asks for with a `@jest-environment jsdom` docblock.
const preset = require('../../jest.preset.js');

module.exports = preset.projectConfig(__dirname, 'unit', {
  testMatch: ['<rootDir>/{src,scripts}/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
  transform: {
    ...preset.transform,
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  setupFiles: [...preset.setupFiles, '<rootDir>/jest.dom-globals.js'],
});
