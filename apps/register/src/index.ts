// What other projects may use of this app: only end-to-end tests, to run it in-process.
export { startRegister } from './bootstrap';
export { loadRegisterConfig } from './config/register-config';
export { migrateRegister } from './migrate';
