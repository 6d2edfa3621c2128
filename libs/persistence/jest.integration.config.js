// Integration tests (*.integration-spec.ts) on the real services: `nx integration <project>`.
module.exports = require('../../jest.preset.js').projectConfig(__dirname, 'integration');
