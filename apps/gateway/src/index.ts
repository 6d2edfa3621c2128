// What other projects may use of this app: only end-to-end tests, to run it in-process.
export { startGateway } from './bootstrap';
export { loadGatewayConfig } from './config/gateway-config';
export { migrateGateway } from './migrate';
