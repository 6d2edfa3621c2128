// Shared by every project's Jest configs: SWC for speed (with decorator metadata, which Nest's
// dependency injection needs) and the tsconfig path aliases. `projectConfig(dir, tier)` builds
// one project's config for one tier of tests (README "Tests"), each run by its own Nx target:
//   unit        *.spec.ts               jest.config.js              nx test <project>
//   integration *.integration-spec.ts   jest.integration.config.js  nx integration <project>
//   e2e         *.e2e-spec.ts           jest.e2e.config.js          nx e2e api-e2e
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

const preset = {
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
    // ESM only, with no CommonJS entry (a dependency of @fastify/static 10): Node requires it
    // natively, Jest's module loader cannot, so Jest gets it compiled to CommonJS.
    '/node_modules/content-disposition/.+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-reflect.js')],
};

const TEST_FILE_SUFFIX = { unit: 'spec', integration: 'integration-spec', e2e: 'e2e-spec' };

/**
 * The config of one tier of one project's tests. Its summary reporter records the counts in
 * tmp/jest-results/<project>.<tier>.json, which `npm test` adds up (tools/scripts/test.sh).
 */
function projectConfig(projectDir, tier, overrides = {}) {
  const suffix = TEST_FILE_SUFFIX[tier];
  if (!suffix) throw new Error(`unknown test tier "${tier}"`);
  const { name } = require(path.join(projectDir, 'project.json'));
  return {
    ...preset,
    displayName: tier === 'unit' ? name : `${name}:${tier}`,
    rootDir: projectDir,
    testMatch: [`<rootDir>/src/**/*.${suffix}.ts`],
    // Both cores of our machines; `npm test` runs one Jest run at a time (tools/scripts/test.sh).
    maxWorkers: 2,
    reporters: [
      'default',
      [path.join(__dirname, 'tools/scripts/summary-reporter.js'), { project: name, tier }],
    ],
    ...overrides,
  };
}

// Not enumerable, so that `...require('jest.preset.js')` still spreads only Jest options.
module.exports = Object.defineProperty(preset, 'projectConfig', { value: projectConfig });
