import {
  ENDPOINT_DISABLED_ROUTING_KEY,
  EVENT_KEYS,
  PLAN_FACTS_ROUTING_KEY,
} from '@custodian/contracts';
import {
  BROKER_USER_IDS,
  DEFAULT_BROKER_NAMES,
  brokerDefinitions,
  brokerGrants,
  composeDefinitions,
  definitionsSecret,
  exactly,
  passwordVariable,
  permissionsOf,
} from './broker-users';

/** RabbitMQ matches a permission regex against the whole name as given; so does this. */
function allows(regex: string, name: string): boolean {
  return new RegExp(regex).test(name);
}

describe('exactly', () => {
  it('matches the names given and nothing around them', () => {
    const regex = exactly(['custodian.events', 'amq.default']);
    expect(regex).toBe('^(custodian\\.events|amq\\.default)$');
    expect(allows(regex, 'custodian.events')).toBe(true);
    expect(allows(regex, 'amq.default')).toBe(true);
    // The dead-letter queue starts with the exchange's name; a dot is not any character.
    expect(allows(regex, 'custodian.events.dead')).toBe(false);
    expect(allows(regex, 'custodianXevents')).toBe(false);
    expect(allows(regex, 'x.custodian.events')).toBe(false);
  });

  it('is ^$ for no name: nothing a queue, an exchange or the default exchange is called', () => {
    expect(exactly([])).toBe('^$');
    for (const name of ['amq.default', 'custodian.events', 'x']) {
      expect(allows(exactly([]), name)).toBe(false);
    }
  });
});

describe('brokerGrants', () => {
  const permissions = Object.fromEntries(
    Object.entries(brokerGrants()).map(([id, grant]) => [id, permissionsOf(grant)]),
  );

  it('lets only the gateway state plan facts, and only the register publish catalog events', () => {
    expect(allows(permissions.gateway!.topic!.write, PLAN_FACTS_ROUTING_KEY)).toBe(true);
    expect(allows(permissions.gateway!.topic!.write, 'plan.changed')).toBe(true);
    expect(allows(permissions.gateway!.topic!.write, 'asset.created')).toBe(false);
    expect(allows(permissions.register!.topic!.write, PLAN_FACTS_ROUTING_KEY)).toBe(false);
    for (const key of EVENT_KEYS)
      expect(allows(permissions.register!.topic!.write, key)).toBe(true);
    // The worker publishes only its endpoint-disabled notices (no event), the CLI nothing.
    expect(allows(permissions['webhook-worker']!.topic!.write, ENDPOINT_DISABLED_ROUTING_KEY)).toBe(
      true,
    );
    for (const key of [...EVENT_KEYS, PLAN_FACTS_ROUTING_KEY])
      expect(allows(permissions['webhook-worker']!.topic!.write, key)).toBe(false);
    expect(allows(permissions['admin-cli']!.write, DEFAULT_BROKER_NAMES.eventsExchange)).toBe(
      false,
    );
  });

  it('lets only the worker read its events queue, and KEDA nothing at all', () => {
    const readers = BROKER_USER_IDS.filter((id) =>
      allows(permissions[id]!.read, DEFAULT_BROKER_NAMES.eventsQueue),
    );
    expect(readers).toEqual(['webhook-worker']);
    expect(permissions.autoscaler).toEqual({ configure: '^$', write: '^$', read: '^$' });
  });

  it("follows a deployment's own names, heavy lanes and plan-facts queues included", () => {
    const grants = brokerGrants({
      ...DEFAULT_BROKER_NAMES,
      registerQueue: 'acme.register',
      eventsExchange: 'acme.events',
    });
    expect(grants.register.read).toEqual(
      expect.arrayContaining([
        'acme.register',
        'acme.register.heavy',
        'acme.events.plan-facts.register',
      ]),
    );
    expect(grants.gateway.topic?.exchange).toBe('acme.events');
    expect(JSON.stringify(grants)).not.toContain('custodian.register.rpc');
  });
});

describe('brokerDefinitions', () => {
  it('gives each user its permissions on the vhost, and the administrator everything', () => {
    const definitions = brokerDefinitions({
      vhost: 'v',
      users: [
        { id: 'gateway', password: 'p1' },
        { id: 'admin-cli', password: 'p2', name: 'cli' },
      ],
      administrator: { name: 'root', password: 'p0' },
    });
    expect(definitions.users).toEqual([
      { name: 'root', password: 'p0', tags: ['administrator'] },
      { name: 'custodian-gateway', password: 'p1', tags: [] },
      { name: 'cli', password: 'p2', tags: [] },
    ]);
    expect(definitions.vhosts).toEqual([{ name: 'v' }]);
    expect(definitions.permissions.map((entry) => [entry.user, entry.vhost])).toEqual([
      ['root', 'v'],
      ['custodian-gateway', 'v'],
      ['cli', 'v'],
    ]);
    // Only users with a topic grant get topic permissions (the CLI publishes no event).
    expect(definitions.topic_permissions.map((entry) => entry.user)).toEqual(['custodian-gateway']);
  });

  it('is a Secret of definitions.json for Kubernetes, the same document', () => {
    const definitions = brokerDefinitions({
      vhost: '/',
      users: [{ id: 'register', password: 'x' }],
    });
    const secret = definitionsSecret(definitions) as { stringData: Record<string, string> };
    expect(secret).toMatchObject({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque' });
    expect(JSON.parse(secret.stringData['definitions.json']!)).toEqual(definitions);
  });
});

describe('composeDefinitions', () => {
  it("names each password by its user's variable, with a default, and doubles every other $", () => {
    const content = composeDefinitions();
    expect(passwordVariable('webhook-worker')).toBe('RABBITMQ_WEBHOOK_WORKER_PASSWORD');
    expect(content).toContain(
      '"password":"${RABBITMQ_WEBHOOK_WORKER_PASSWORD:-custodian-webhook-worker}"',
    );
    // Every $ is a variable or a doubled (literal) one: compose would refuse a lone `$)`.
    expect(content.replace(/\$\$|\$\{[A-Z_]+:-[a-z-]+\}/g, '')).not.toContain('$');
    const resolved = content.replace(/\$\{[A-Z_]+:-([a-z-]+)\}/g, '$1').replace(/\$\$/g, '$');
    expect(JSON.parse(resolved)).toEqual(
      brokerDefinitions({
        vhost: '/',
        administrator: { name: 'custodian', password: 'custodian' },
        users: ['gateway', 'register', 'webhook-worker', 'admin-cli'].map((id) => ({
          id: id as 'gateway',
          password: `custodian-${id}`,
        })),
      }),
    );
  });
});
