// Shared by every project's jest.config.js: SWC for speed (with decorator metadata, which
// Nest's dependency injection needs) and the tsconfig path aliases.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-reflect.js')],
};
