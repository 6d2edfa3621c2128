import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
} from '@custodian/contracts';

export interface AdminCommand {
  /**
   * The app that owns the state this command changes; its admin queue gets the message
   * (`ADMIN_QUEUE` for the gateway, `REGISTER_ADMIN_QUEUE` for the register,
   * `WORKER_ADMIN_QUEUE` for the webhook-worker).
   */
  owner: 'gateway' | 'register' | 'worker';
  /** A pattern of GatewayAdminRpc, RegisterAdminRpc or WorkerAdminRpc (its owner's queue). */
  pattern: string;
  /** Options the command takes, as the CLI spells them. */
  options: string[];
  required: string[];
}

/** `<noun> <verb>` to the message that the owning app answers. */
export const COMMANDS: Record<string, AdminCommand> = {
  'workspace create': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.workspaceCreate,
    options: ['name', 'plan', 'owner-email'],
    required: ['name', 'plan'],
  },
  'workspace show': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.workspaceGet,
    options: ['workspace'],
    required: ['workspace'],
  },
  'workspace plan': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.workspacePlan,
    options: ['workspace', 'plan'],
    required: ['workspace', 'plan'],
  },
  'workspace limits': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.workspaceLimits,
    options: ['workspace', 'rate-per-minute', 'monthly-quota', 'assets', 'people', 'seats'],
    required: ['workspace'],
  },
  'key create': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.keyCreate,
    options: ['workspace', 'scope', 'name'],
    required: ['workspace', 'scope'],
  },
  'key revoke': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.keyRevoke,
    options: ['id'],
    required: ['id'],
  },
  'key list': {
    owner: 'gateway',
    pattern: GatewayAdminPatterns.keyList,
    options: ['workspace'],
    required: ['workspace'],
  },
  'invitation list': {
    owner: 'register',
    pattern: RegisterAdminPatterns.invitationList,
    options: ['workspace'],
    required: ['workspace'],
  },
  'invitation renew': {
    owner: 'register',
    pattern: RegisterAdminPatterns.invitationRenew,
    options: ['id'],
    required: ['id'],
  },
  'invitation accept': {
    owner: 'register',
    pattern: RegisterAdminPatterns.invitationAccept,
    options: ['token'],
    required: ['token'],
  },
  'customfield create': {
    owner: 'register',
    pattern: RegisterAdminPatterns.customFieldCreate,
    options: ['workspace', 'key', 'label', 'type', 'options', 'required'],
    required: ['workspace', 'key', 'label', 'type'],
  },
  'webhook create': {
    owner: 'worker',
    pattern: WorkerAdminPatterns.webhookCreate,
    options: ['workspace', 'url', 'events', 'description'],
    required: ['workspace', 'url', 'events'],
  },
  'webhook list': {
    owner: 'worker',
    pattern: WorkerAdminPatterns.webhookList,
    options: ['workspace'],
    required: ['workspace'],
  },
  'webhook test': {
    owner: 'worker',
    pattern: WorkerAdminPatterns.webhookTest,
    options: ['id'],
    required: ['id'],
  },
  'webhook delete': {
    owner: 'worker',
    pattern: WorkerAdminPatterns.webhookDelete,
    options: ['id'],
    required: ['id'],
  },
  deliveries: {
    owner: 'worker',
    pattern: WorkerAdminPatterns.deliveries,
    options: ['endpoint', 'limit'],
    required: ['endpoint'],
  },
};

export interface ParsedCommand {
  name: string;
  command: AdminCommand;
  payload: Record<string, string | true>;
}

/** Parses `noun verb --option value ...`; throws an Error whose message is for the user. */
export function parseCommand(argv: string[]): ParsedCommand {
  // Most commands are `noun verb`; a few (`deliveries`) are one word.
  const single = argv[0] !== undefined && COMMANDS[argv[0]] !== undefined;
  const [noun, verb, ...rest] = single ? [argv[0], undefined, ...argv.slice(1)] : argv;
  const name = `${noun ?? ''} ${verb ?? ''}`.trim();
  const command = COMMANDS[name];
  if (!command) {
    throw new Error(`unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
  }
  const payload: Record<string, string | true> = {};
  const tokens = [...rest];
  for (let token = tokens.shift(); token !== undefined; token = tokens.shift()) {
    if (!token.startsWith('--')) throw new Error(`unexpected argument ${token}`);
    const option = token.slice(2);
    if (!command.options.includes(option)) {
      throw new Error(
        `unknown option --${option} for "${name}"; options: ${command.options.map((o) => `--${o}`).join(' ')}`,
      );
    }
    const next = tokens[0];
    if (next === undefined || next.startsWith('--')) {
      payload[snake(option)] = true;
    } else {
      payload[snake(option)] = next;
      tokens.shift();
    }
  }
  const empty = command.required.filter((option) => payload[snake(option)] === true);
  if (empty.length > 0) {
    throw new Error(`${empty.map((o) => `--${o}`).join(', ')} needs a value`);
  }
  const missing = command.required.filter((option) => payload[snake(option)] === undefined);
  if (missing.length > 0) {
    throw new Error(`"${name}" needs ${missing.map((o) => `--${o}`).join(', ')}`);
  }
  return { name, command, payload };
}

function snake(option: string): string {
  return option.replace(/-/g, '_');
}
