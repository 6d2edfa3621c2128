import 'reflect-metadata';
import {
  DomainError,
  errorBody,
  errorBodyForCode,
  GATEWAY_ADMIN_QUEUE,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { parseCommand } from './commands';

/**
 * The admin CLI: one JSON document on stdout and exit 0, or the error body on stderr and
 * exit 1. It changes nothing itself; the owning app does, over RabbitMQ.
 */
async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    process.stderr.write(`${JSON.stringify(errorBody(400, (error as Error).message))}\n`);
    return 2;
  }
  const client = new RmqRpcClient({
    url: process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    queue: process.env.ADMIN_QUEUE ?? GATEWAY_ADMIN_QUEUE,
    timeoutMs: Number(process.env.ADMIN_TIMEOUT_MS ?? 10_000),
    connectionName: 'custodian-admin-cli',
    serviceName: parsed.command.owner,
  });
  try {
    await client.connect();
  } catch (error) {
    const message = `RabbitMQ is not reachable (${(error as Error).message}); is the stack running (npm start)?`;
    process.stderr.write(`${JSON.stringify(errorBody(503, message))}\n`);
    return 1;
  }
  try {
    const result = await client.request(parsed.command.pattern, parsed.payload);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    const body =
      error instanceof DomainError
        ? errorBodyForCode(
            error.code,
            error.code === 'timeout'
              ? `${error.message}; is the stack running (npm start)?`
              : error.message,
          )
        : errorBody(500, (error as Error).message);
    process.stderr.write(`${JSON.stringify(body)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
