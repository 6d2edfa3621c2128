import {
  EVENT_KEYS,
  EVENT_KEYS_BY_MODULE,
  EVENTS_DEAD_LETTER_EXCHANGE,
  EVENTS_DEAD_LETTER_QUEUE,
  EVENTS_EXCHANGE,
  GATEWAY_ADMIN_QUEUE,
  PLAN_FACTS_ROUTING_KEY,
  REGISTER_ADMIN_QUEUE,
  REGISTER_RPC_QUEUE,
  WORKER_ADMIN_QUEUE,
  WORKER_EVENTS_QUEUE,
  ENDPOINT_DISABLED_ROUTING_KEY,
  endpointDisabledQueueOf,
  heavyLaneOf,
  planFactsQueueOf,
} from '@custodian/contracts';

/**
 * The broker users and what each may do: the one source of truth for the definitions that
 * docker-compose.yml loads into its broker, for the definitions printed for Kubernetes
 * (tools/admin, `npm run rabbitmq:definitions`), and for the test that runs every app's own
 * broker code as its user (broker-users.integration-spec.ts). docs/operations.md has the same
 * table, checked against this by broker-users.spec.ts.
 *
 * RabbitMQ grants three permissions per user and vhost, each a regex over queue and exchange
 * names (one regex for both kinds): configure (declare, delete), write (publish to an
 * exchange; bind a queue, as its destination) and read (consume from a queue; bind, as the
 * source exchange). Publishing to a queue by name (sendToQueue) goes through the default
 * exchange, checked as write on `amq.default`; consuming from direct reply-to needs no
 * permission. Topic permissions narrow, per user, the routing keys it may publish to a topic
 * exchange (write) and the binding keys it may bind with (read).
 */

/** The default exchange as RabbitMQ's permission checks name it (RPC requests and replies). */
export const DEFAULT_EXCHANGE = 'amq.default';

/** The names the permissions are derived from: the apps' defaults, unless a deployment renames. */
export interface BrokerNames {
  /** REGISTER_QUEUE (gateway, register); its heavy lane is named after it. */
  registerQueue: string;
  /** REGISTER_ADMIN_QUEUE (gateway, register, admin CLI); its heavy lane too. */
  registerAdminQueue: string;
  /** ADMIN_QUEUE (gateway, admin CLI). */
  gatewayAdminQueue: string;
  /** WORKER_ADMIN_QUEUE (webhook-worker, gateway, admin CLI). */
  workerAdminQueue: string;
  /** EVENTS_EXCHANGE (all three apps); the plan-facts queues are named after it. */
  eventsExchange: string;
  /** EVENTS_QUEUE (webhook-worker, KEDA). */
  eventsQueue: string;
  /** EVENTS_DEAD_LETTER_EXCHANGE, EVENTS_DEAD_LETTER_QUEUE (webhook-worker). */
  deadLetterExchange: string;
  deadLetterQueue: string;
}

export const DEFAULT_BROKER_NAMES: Readonly<BrokerNames> = {
  registerQueue: REGISTER_RPC_QUEUE,
  registerAdminQueue: REGISTER_ADMIN_QUEUE,
  gatewayAdminQueue: GATEWAY_ADMIN_QUEUE,
  workerAdminQueue: WORKER_ADMIN_QUEUE,
  eventsExchange: EVENTS_EXCHANGE,
  eventsQueue: WORKER_EVENTS_QUEUE,
  deadLetterExchange: EVENTS_DEAD_LETTER_EXCHANGE,
  deadLetterQueue: EVENTS_DEAD_LETTER_QUEUE,
};

/** The variable each app (and the admin CLI) reads a name from, for a deployment's own names. */
export const BROKER_NAME_VARIABLES: Readonly<Record<keyof BrokerNames, string>> = {
  registerQueue: 'REGISTER_QUEUE',
  registerAdminQueue: 'REGISTER_ADMIN_QUEUE',
  gatewayAdminQueue: 'ADMIN_QUEUE',
  workerAdminQueue: 'WORKER_ADMIN_QUEUE',
  eventsExchange: 'EVENTS_EXCHANGE',
  eventsQueue: 'EVENTS_QUEUE',
  deadLetterExchange: 'EVENTS_DEAD_LETTER_EXCHANGE',
  deadLetterQueue: 'EVENTS_DEAD_LETTER_QUEUE',
};

/**
 * Who connects: the three apps, the admin CLI, and the autoscaler (KEDA, on Kubernetes), which
 * only reads the events queue's length with a passive declare, which needs no permission.
 */
export const BROKER_USER_IDS = [
  'gateway',
  'register',
  'webhook-worker',
  'admin-cli',
  'autoscaler',
] as const;
export type BrokerUserId = (typeof BROKER_USER_IDS)[number];

/** `custodian-gateway`, ...: the user names compose and Kubernetes provision. */
export function brokerUserName(id: BrokerUserId): string {
  return `custodian-${id}`;
}

/** A user's permissions by exact name; the regexes are made from these (permissionsOf). */
export interface BrokerGrant {
  configure: readonly string[];
  write: readonly string[];
  read: readonly string[];
  /** Keys on the events exchange (a topic exchange): published (write), bound with (read). */
  topic?: { exchange: string; write: readonly string[]; read: readonly string[] };
}

/**
 * What each user may do, derived from the names: only what its code does on the broker. Every
 * entry is needed by a code path that the integration test runs (and fails without it).
 */
export function brokerGrants(
  names: BrokerNames = DEFAULT_BROKER_NAMES,
): Record<BrokerUserId, BrokerGrant> {
  const registerQueues = [
    names.registerQueue,
    heavyLaneOf(names.registerQueue),
    names.registerAdminQueue,
    heavyLaneOf(names.registerAdminQueue),
  ];
  const planFacts = {
    register: planFactsQueueOf(names.eventsExchange, 'register'),
    worker: planFactsQueueOf(names.eventsExchange, 'webhook-worker'),
  };
  // The register's queue of the worker's endpoint-disabled notices (declared by both).
  const endpointDisabled = endpointDisabledQueueOf(names.eventsExchange);
  return {
    gateway: {
      // Its admin queue (its RPC server declares it); the queues it calls (its RPC client
      // declares them, so that requests wait for a server still starting); the events
      // exchange and every reader's plan-facts queue (its outbox relay declares them, so that
      // facts stated before a reader's first start wait for it).
      configure: [
        names.gatewayAdminQueue,
        ...registerQueues,
        names.workerAdminQueue,
        names.eventsExchange,
        planFacts.register,
        planFacts.worker,
      ],
      // Requests and admin replies (default exchange), its outbox's events and plan facts,
      // and the bindings of the plan-facts queues (write on the bound queue).
      write: [DEFAULT_EXCHANGE, names.eventsExchange, planFacts.register, planFacts.worker],
      // Consumes its admin queue; binds the plan-facts queues to the events exchange.
      read: [names.gatewayAdminQueue, names.eventsExchange],
      // It owns plans: the plan events and the internal plan facts, nothing else.
      topic: {
        exchange: names.eventsExchange,
        write: [...EVENT_KEYS_BY_MODULE.plan, PLAN_FACTS_ROUTING_KEY],
        read: [PLAN_FACTS_ROUTING_KEY],
      },
    },
    register: {
      // Its four RPC queues (servers), the events exchange (outbox relay, plan-facts consumer)
      // and its own plan-facts and endpoint-disabled queues.
      configure: [...registerQueues, names.eventsExchange, planFacts.register, endpointDisabled],
      // Replies (default exchange), its outbox's events, its two queues' bindings.
      write: [DEFAULT_EXCHANGE, names.eventsExchange, planFacts.register, endpointDisabled],
      // Consumes its RPC queues and its two queues; binds the latter to the events exchange.
      read: [...registerQueues, planFacts.register, endpointDisabled, names.eventsExchange],
      // Catalog events only: never the gateway's plan facts; it binds only to plan facts and
      // the worker's endpoint-disabled notices.
      topic: {
        exchange: names.eventsExchange,
        write: [...EVENT_KEYS],
        read: [PLAN_FACTS_ROUTING_KEY, ENDPOINT_DISABLED_ROUTING_KEY],
      },
    },
    'webhook-worker': {
      // Its admin queue, its plan-facts queue, the events queue and exchange, and the
      // dead-letter exchange and queue (one name by default: one entry serves both).
      configure: unique([
        names.workerAdminQueue,
        names.eventsExchange,
        names.deadLetterExchange,
        names.deadLetterQueue,
        names.eventsQueue,
        planFacts.worker,
        endpointDisabled,
      ]),
      // Admin replies (default exchange); the dead-letter exchange (declaring the events
      // queue with it as x-dead-letter-exchange needs write on it); the queues it binds; the
      // events exchange, where its outbox publishes endpoint-disabled notices.
      write: unique([
        DEFAULT_EXCHANGE,
        names.deadLetterExchange,
        names.deadLetterQueue,
        names.eventsQueue,
        planFacts.worker,
        endpointDisabled,
        names.eventsExchange,
      ]),
      // Consumes its admin, events and plan-facts queues (declaring the events queue with a
      // dead-letter exchange needs read on it too); binds from the events and dead-letter
      // exchanges. Not the dead-letter queue: it only reads its depth (a declare).
      read: unique([
        names.workerAdminQueue,
        names.eventsQueue,
        planFacts.worker,
        names.eventsExchange,
        names.deadLetterExchange,
      ]),
      // Publishes only its endpoint-disabled notices there (no event); binds its events queue
      // to every key, its plan-facts queue to plan facts, the register's notices queue (its
      // relay declares it) to the notices.
      topic: {
        exchange: names.eventsExchange,
        write: [ENDPOINT_DISABLED_ROUTING_KEY],
        read: ['#', PLAN_FACTS_ROUTING_KEY, ENDPOINT_DISABLED_ROUTING_KEY],
      },
    },
    'admin-cli': {
      // Sends to the three admin queues (its RPC client declares the queue it sends to) and
      // reads its replies from direct reply-to (no permission).
      configure: [names.gatewayAdminQueue, names.registerAdminQueue, names.workerAdminQueue],
      write: [DEFAULT_EXCHANGE],
      read: [],
    },
    // KEDA's rabbitmq trigger (protocol amqp): a passive declare of the events queue.
    autoscaler: { configure: [], write: [], read: [] },
  };
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}

/** A regex matching exactly these names and nothing else; `^$` (nothing) for none. */
export function exactly(names: readonly string[]): string {
  const escaped = unique(names).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (escaped.length === 0) return '^$';
  return escaped.length === 1 ? `^${escaped[0]}$` : `^(${escaped.join('|')})$`;
}

/** A user's permissions as RabbitMQ takes them (set_permissions, set_topic_permissions). */
export interface BrokerPermissions {
  configure: string;
  write: string;
  read: string;
  topic?: { exchange: string; write: string; read: string };
}

export function permissionsOf(grant: BrokerGrant): BrokerPermissions {
  return {
    configure: exactly(grant.configure),
    write: exactly(grant.write),
    read: exactly(grant.read),
    ...(grant.topic
      ? {
          topic: {
            exchange: grant.topic.exchange,
            write: exactly(grant.topic.write),
            read: exactly(grant.topic.read),
          },
        }
      : {}),
  };
}

/**
 * RabbitMQ's definitions document, as `rabbitmqctl import_definitions` and a node loading
 * definitions at boot (`definitions.local.path`) take it. Users carry their password in
 * plain text (`password`): RabbitMQ hashes it when it imports the document, so the document
 * itself is a secret.
 */
export interface BrokerDefinitions {
  users: Array<{ name: string; password: string; tags: string[] }>;
  vhosts: Array<{ name: string }>;
  permissions: Array<{
    user: string;
    vhost: string;
    configure: string;
    write: string;
    read: string;
  }>;
  topic_permissions: Array<{
    user: string;
    vhost: string;
    exchange: string;
    write: string;
    read: string;
  }>;
}

export interface BrokerDefinitionsOptions {
  vhost: string;
  /** The users to provision: `name` defaults to brokerUserName(id). */
  users: ReadonlyArray<{ id: BrokerUserId; password: string; name?: string }>;
  names?: BrokerNames;
  /**
   * The broker's administrator, for operators only (every permission, `administrator` tag):
   * a broker that loads definitions at boot creates no default user of its own.
   */
  administrator?: { name: string; password: string };
}

export function brokerDefinitions(options: BrokerDefinitionsOptions): BrokerDefinitions {
  const grants = brokerGrants(options.names);
  const { vhost } = options;
  const definitions: BrokerDefinitions = {
    users: [],
    vhosts: [{ name: vhost }],
    permissions: [],
    topic_permissions: [],
  };
  if (options.administrator) {
    const { name, password } = options.administrator;
    definitions.users.push({ name, password, tags: ['administrator'] });
    definitions.permissions.push({ user: name, vhost, configure: '.*', write: '.*', read: '.*' });
  }
  for (const { id, password, name = brokerUserName(id) } of options.users) {
    const { configure, write, read, topic } = permissionsOf(grants[id]);
    definitions.users.push({ name, password, tags: [] });
    definitions.permissions.push({ user: name, vhost, configure, write, read });
    if (topic) definitions.topic_permissions.push({ user: name, vhost, ...topic });
  }
  return definitions;
}

/** The variable that holds a user's password: RABBITMQ_GATEWAY_PASSWORD, ... */
export function passwordVariable(id: BrokerUserId): string {
  return `RABBITMQ_${id.toUpperCase().replace(/-/g, '_')}_PASSWORD`;
}

/** The users docker-compose.yml provisions: its three apps and the admin CLI (no KEDA there). */
export const COMPOSE_BROKER_USERS: readonly BrokerUserId[] = [
  'gateway',
  'register',
  'webhook-worker',
  'admin-cli',
];

/** The broker's administrator in docker-compose.yml, for operators (RABBITMQ_PASSWORD). */
export const COMPOSE_ADMINISTRATOR = { name: 'custodian', passwordVariable: 'RABBITMQ_PASSWORD' };

/**
 * The `content` of docker-compose.yml's `rabbitmq-definitions` config: the definitions of the
 * vhost `/`, the administrator and COMPOSE_BROKER_USERS, each password a compose variable
 * with a local default (`${RABBITMQ_GATEWAY_PASSWORD:-custodian-gateway}`), every other `$`
 * doubled (compose would read `$)` as a variable). The deploy spec checks the file against it.
 */
export function composeDefinitions(): string {
  const placeholder = (variable: string, fallback: string) => `@@${variable}:-${fallback}@@`;
  const definitions = brokerDefinitions({
    vhost: '/',
    administrator: {
      name: COMPOSE_ADMINISTRATOR.name,
      password: placeholder(COMPOSE_ADMINISTRATOR.passwordVariable, COMPOSE_ADMINISTRATOR.name),
    },
    users: COMPOSE_BROKER_USERS.map((id) => ({
      id,
      password: placeholder(passwordVariable(id), brokerUserName(id)),
    })),
  });
  return definitionsText(definitions)
    .replace(/\$/g, '$$$$')
    .replace(/@@([A-Z_]+:-[a-z-]+)@@/g, '$${$1}');
}

/** The document as JSON with one line per user, vhost or permission: read line by line. */
export function definitionsText(definitions: BrokerDefinitions): string {
  const sections = Object.entries(definitions).map(
    ([key, entries]: [string, unknown[]]) =>
      `  ${JSON.stringify(key)}: [\n${entries.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n')}\n  ]`,
  );
  return `{\n${sections.join(',\n')}\n}\n`;
}

/**
 * A Kubernetes Secret holding `definitions` as `definitions.json` (JSON, which `kubectl apply
 * -f` takes as well as YAML), for a broker that loads its definitions from a Secret.
 */
export function definitionsSecret(
  definitions: BrokerDefinitions,
  name = 'custodian-rabbitmq-definitions',
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, labels: { 'app.kubernetes.io/part-of': 'custodian' } },
    type: 'Opaque',
    stringData: { 'definitions.json': definitionsText(definitions) },
  };
}
