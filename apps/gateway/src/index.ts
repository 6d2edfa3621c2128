// What other projects may use of this app: only end-to-end tests and benchmarks, to run it
// in-process.
export { createGatewayAdapter, listenGateway, startGateway } from './bootstrap';
export { GatewayAppModule } from './app.module';
export { AccessGate, type GateDecision } from './limits/access-gate';
export { AccessService } from './keys/access.service';
export { loadGatewayConfig } from './config/gateway-config';
export { migrateGateway } from './migrate';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/openapi-document';
export { generateOpenApiDocument } from './openapi/generate';
