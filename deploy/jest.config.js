// Unit tests (*.spec.ts): `nx test deploy`. Renders deploy/kubernetes with kubectl and checks
// it, docker-compose.yml and the Prometheus and Grafana files; no services.
module.exports = require('../jest.preset.js').projectConfig(__dirname, 'unit');
