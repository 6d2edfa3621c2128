import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { uniqueSuffix } from './test-database';

const run = promisify(execFile);

/** `rabbitmqctl -q ...` on the machine's broker (root or the rabbitmq user may run it). */
export async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await run('rabbitmqctl', ['-q', ...args]);
  return stdout;
}

/** What a definitions document holds that a ThrowawayVhost needs to know about. */
export interface VhostDefinitions {
  users?: Array<{ name: string; password: string; tags: string[] }>;
  vhosts?: Array<{ name: string }>;
  permissions?: Array<Record<string, string>>;
  topic_permissions?: Array<Record<string, string>>;
}

/**
 * A vhost of a test's own on the machine's RabbitMQ, and users made for it from a RabbitMQ
 * definitions document (`rabbitmqctl import_definitions`, as a broker loading definitions takes
 * it). Users belong to the broker, not to a vhost: name them after the run (uniqueSuffix), so
 * that runs side by side never share one. drop() deletes the vhost and every user provisioned.
 */
export class ThrowawayVhost {
  readonly name: string;
  private readonly users = new Set<string>();

  constructor(
    label: string,
    private readonly adminUrl = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  ) {
    this.name = `custodian-test-${label}-${uniqueSuffix()}`;
  }

  /** The broker's address (RABBITMQ_URL's host and port) as `user`, in this vhost. */
  urlOf(user: string, password: string): string {
    const url = new URL(this.adminUrl);
    url.username = encodeURIComponent(user);
    url.password = encodeURIComponent(password);
    url.pathname = `/${encodeURIComponent(this.name)}`;
    return url.toString();
  }

  /**
   * Imports `definitions` (its users are deleted by drop()). rabbitmqctl reads the file as the
   * `rabbitmq` user, from a directory of its own: an absolute path readable by that user
   * (`-`, stdin, fails on RabbitMQ 3.10).
   */
  async provision(definitions: VhostDefinitions): Promise<void> {
    for (const user of definitions.users ?? []) this.users.add(user.name);
    const file = path.join(
      tmpdir(),
      `custodian-definitions-${randomBytes(6).toString('hex')}.json`,
    );
    writeFileSync(file, JSON.stringify(definitions), { mode: 0o644 });
    try {
      await rabbitmqctl('import_definitions', file);
    } finally {
      unlinkSync(file);
    }
  }

  /**
   * Deletes the vhost, then the users: in one call (each rabbitmqctl call starts an Erlang VM,
   * about half a second), then one by one whatever is left (a node without that internal
   * function).
   */
  async drop(): Promise<void> {
    await rabbitmqctl('delete_vhost', this.name).catch(() => undefined);
    const users = [...this.users];
    if (users.length === 0) return;
    const list = users.map((user) => `<<"${user}">>`).join(', ');
    await rabbitmqctl(
      'eval',
      `[catch rabbit_auth_backend_internal:delete_user(U, <<"custodian-test">>) || U <- [${list}]], ok.`,
    ).catch(() => undefined);
    const left = new Set(
      (await rabbitmqctl('list_users')).split('\n').map((line) => line.split('\t')[0]),
    );
    for (const user of users.filter((name) => left.has(name))) {
      await rabbitmqctl('delete_user', user).catch(() => undefined);
    }
    this.users.clear();
  }
}
