// Unit tests (*.spec.ts): `nx test <project>`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'unit');
