// `npx jest <paths>`: runs any test file, of any tier, with its project's config. `npm test`
// runs each project's tiers as Nx targets instead (tools/scripts/test.sh, README "Tests").
module.exports = {
  projects: ['<rootDir>/{apps,libs,tools}/*/jest{,.integration,.e2e}.config.js'],
  reporters: ['default', '<rootDir>/tools/scripts/summary-reporter.js'],
};
