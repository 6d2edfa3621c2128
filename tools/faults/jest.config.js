// Unit tests (*.spec.ts): `nx test faults`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'unit');
