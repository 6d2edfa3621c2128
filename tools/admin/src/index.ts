// For end-to-end tests, which run the CLI in-process against a test stack.
export { runAdmin, type CliIo } from './cli';
