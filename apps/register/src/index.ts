// What other projects may use of this app: only end-to-end tests, to run it in-process.
export { startRegister } from './bootstrap';
export { loadRegisterConfig } from './config/register-config';
export { migrateRegister } from './migrate';
// The benchmark's bare handler serves the very same SQL, for a fair comparison.
export { DETAIL_COLUMNS, DETAIL_FROM, SUMMARY_COLUMNS, SUMMARY_FROM } from './assets/asset-rows';
export { likePattern } from './assets/asset-list-query';
