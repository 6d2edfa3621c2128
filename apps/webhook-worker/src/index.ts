// What other projects may use of this app: only end-to-end tests, to run it in-process.
export { startWorker } from './bootstrap';
export { loadWorkerConfig } from './config/worker-config';
export { migrateWorker } from './migrate';
