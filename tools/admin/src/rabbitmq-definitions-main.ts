import 'reflect-metadata';
import { runRabbitmqDefinitions } from './rabbitmq-definitions';

process.exitCode = runRabbitmqDefinitions(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
