import './tracing';
import 'reflect-metadata';
import { startGateway } from './bootstrap';
import { loadGatewayConfig } from './config/gateway-config';

startGateway(loadGatewayConfig()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
