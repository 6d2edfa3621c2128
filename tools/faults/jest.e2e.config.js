// The short fault ledger (*.e2e-spec.ts) through the built apps and tool: `nx e2e faults`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'e2e');
