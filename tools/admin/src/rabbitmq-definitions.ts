import {
  BROKER_NAME_VARIABLES,
  DEFAULT_BROKER_NAMES,
  brokerDefinitions,
  brokerUserName,
  composeDefinitions,
  definitionsSecret,
  definitionsText,
  passwordVariable,
  type BrokerNames,
  type BrokerUserId,
} from '@custodian/messaging';
import type { CliIo } from './cli';

const USAGE = `npm run --silent rabbitmq:definitions [-- --format json|secret|compose] [--secret-name NAME]

Prints the RabbitMQ definitions of Custodian's broker users (libs/messaging/src/broker-users.ts):
  json     the document for rabbitmqctl import_definitions or a broker's load_definitions
  secret   the same, as a Kubernetes Secret (definitions.json), for kubectl apply -f -
  compose  the content of docker-compose.yml's rabbitmq-definitions config (no passwords needed)

Passwords come from the environment, one per user: RABBITMQ_GATEWAY_PASSWORD,
RABBITMQ_REGISTER_PASSWORD, RABBITMQ_WEBHOOK_WORKER_PASSWORD (required), RABBITMQ_ADMIN_CLI_PASSWORD
and RABBITMQ_AUTOSCALER_PASSWORD (each user provisioned only when set). Letters, digits and
. _ ~ - only: each also goes into an amqp:// URL as it is (openssl rand -hex 24).
RABBITMQ_VHOST (default /); queue and exchange names as the apps read them (REGISTER_QUEUE, ...).
`;

const REQUIRED: readonly BrokerUserId[] = ['gateway', 'register', 'webhook-worker'];
const OPTIONAL: readonly BrokerUserId[] = ['admin-cli', 'autoscaler'];
/** What a URL carries as it is (RFC 3986 unreserved): no encoding to get wrong. */
const PASSWORD = /^[A-Za-z0-9._~-]{16,}$/;

type Format = 'json' | 'secret' | 'compose';

/** Exit code 0 with the document on stdout, or 2 with what is wrong on stderr. */
export function runRabbitmqDefinitions(argv: string[], io: CliIo): number {
  const options = parseOptions(argv);
  if (typeof options === 'string') {
    io.stderr(`${options}\n\n${USAGE}`);
    return 2;
  }
  if (options.format === 'compose') {
    io.stdout(composeDefinitions());
    return 0;
  }
  const problems: string[] = [];
  const users: Array<{ id: BrokerUserId; password: string }> = [];
  for (const id of [...REQUIRED, ...OPTIONAL]) {
    const variable = passwordVariable(id);
    const password = io.env[variable];
    if (!password) {
      if (REQUIRED.includes(id)) problems.push(`${variable} is not set (${brokerUserName(id)})`);
      continue;
    }
    if (!PASSWORD.test(password)) {
      problems.push(`${variable}: 16 or more letters, digits, '.', '_', '~' or '-'`);
      continue;
    }
    users.push({ id, password });
  }
  if (problems.length > 0) {
    io.stderr(`${problems.join('\n')}\n\n${USAGE}`);
    return 2;
  }
  const names = Object.fromEntries(
    Object.entries(BROKER_NAME_VARIABLES).map(([key, variable]) => [
      key,
      io.env[variable] || DEFAULT_BROKER_NAMES[key as keyof BrokerNames],
    ]),
  ) as unknown as BrokerNames;
  const definitions = brokerDefinitions({ vhost: io.env.RABBITMQ_VHOST || '/', users, names });
  io.stdout(
    options.format === 'secret'
      ? `${JSON.stringify(definitionsSecret(definitions, options.secretName), null, 2)}\n`
      : definitionsText(definitions),
  );
  io.stderr(`users: ${users.map(({ id }) => brokerUserName(id)).join(', ')}\n`);
  return 0;
}

function parseOptions(argv: string[]): { format: Format; secretName?: string } | string {
  let format: Format = 'json';
  let secretName: string | undefined;
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--format' && (value === 'json' || value === 'secret' || value === 'compose')) {
      format = value;
    } else if (flag === '--secret-name' && value) {
      secretName = value;
    } else {
      return `unknown option ${[flag, value].filter(Boolean).join(' ')}`;
    }
  }
  return { format, ...(secretName ? { secretName } : {}) };
}
