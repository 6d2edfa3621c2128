// Unit tests (*.spec.ts) of the repository's own ESLint rules: `nx test lint-rules`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'unit');
