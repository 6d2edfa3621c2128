// Imported first by main.ts: the Postgres instrumentation must be in place before pg loads.
import { startTracing } from '@custodian/observability';

startTracing('register');
