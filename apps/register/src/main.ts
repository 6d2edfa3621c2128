import './tracing';
import 'reflect-metadata';
import { startRegister } from './bootstrap';
import { loadRegisterConfig } from './config/register-config';

startRegister(loadRegisterConfig()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
