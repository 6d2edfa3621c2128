// Unit tests (*.spec.ts) of the console's pure code and of its build scripts: `nx test console`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'unit', {
  testMatch: ['<rootDir>/{src,scripts}/**/*.spec.ts'],
});
