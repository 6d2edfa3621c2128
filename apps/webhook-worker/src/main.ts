import './tracing';
import 'reflect-metadata';
import { startWorker } from './bootstrap';
import { loadWorkerConfig } from './config/worker-config';

startWorker(loadWorkerConfig()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
