import {
  DomainError,
  errorBody,
  errorBodyForCode,
  GATEWAY_ADMIN_QUEUE,
  REGISTER_ADMIN_QUEUE,
  WORKER_ADMIN_QUEUE,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { parseCommand } from './commands';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * The admin CLI: one JSON document on stdout and exit 0, or the error body on stderr and
 * a non-zero exit. It changes nothing itself; the owning app does, over RabbitMQ.
 */
export async function runAdmin(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    io.stderr(`${JSON.stringify(errorBody(400, (error as Error).message))}\n`);
    return 2;
  }
  const client = new RmqRpcClient({
    url: io.env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672',
    queue: {
      register: io.env.REGISTER_ADMIN_QUEUE || REGISTER_ADMIN_QUEUE,
      worker: io.env.WORKER_ADMIN_QUEUE || WORKER_ADMIN_QUEUE,
      gateway: io.env.ADMIN_QUEUE || GATEWAY_ADMIN_QUEUE,
    }[parsed.command.owner],
    timeoutMs: Number(io.env.ADMIN_TIMEOUT_MS) > 0 ? Number(io.env.ADMIN_TIMEOUT_MS) : 10_000,
    connectionName: 'custodian-admin-cli',
    serviceName: parsed.command.owner,
  });
  try {
    await client.connect();
  } catch (error) {
    const message = `RabbitMQ is not reachable (${(error as Error).message}); is the stack running (npm start)?`;
    io.stderr(`${JSON.stringify(errorBody(503, message))}\n`);
    return 1;
  }
  try {
    const result = await client.request(parsed.command.pattern, parsed.payload);
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
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
    io.stderr(`${JSON.stringify(body)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
