// Compiled apps keep their `@custodian/*` imports; this maps them onto dist/ at run time so
// that libs never need a build of their own (see docs/adr/0002-build-and-run.md).
const path = require('node:path');
const tsConfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../../tsconfig.base.json');

const distRoot = process.env.CUSTODIAN_DIST ?? path.join(__dirname, '..', '..', 'dist');
const paths = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, targets]) => [
    alias,
    targets.map((target) => target.replace(/\.ts$/, '')),
  ]),
);
tsConfigPaths.register({ baseUrl: distRoot, paths });
