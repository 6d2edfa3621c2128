import type { CreatedKeyView, ErrorBody, KeyView, WorkspaceView } from '@custodian/contracts';
import { openConnection } from '@custodian/messaging';
import { TestStack } from './support/stack';

/** Each CLI run is a node process of its own: about a second to start on a busy machine. */
const CLI_TEST_MS = 20_000;

describe('admin CLI (e2e)', () => {
  const stack = new TestStack();

  beforeAll(() => stack.start(), 30_000);
  afterAll(() => stack.stop());

  const admin = (...argv: string[]) => stack.cli(...argv);

  it(
    'creates a workspace and a key, which then works against the API',
    async () => {
      const created = await admin('workspace', 'create', '--name', 'Acme', '--plan', 'pro');
      expect(created.code).toBe(0);
      expect(created.stderr).toBe('');
      const workspace = JSON.parse(created.stdout) as WorkspaceView;
      expect(workspace).toMatchObject({ name: 'Acme', plan: 'pro' });

      const keyRun = await admin('key', 'create', '--workspace', workspace.id, '--scope', 'read');
      expect(keyRun.code).toBe(0);
      const key = JSON.parse(keyRun.stdout) as CreatedKeyView;
      expect(key.key).toMatch(/^cus_[0-9A-Za-z]{40}$/);

      const ping = await stack.request('/ping', { headers: { 'x-api-key': key.key } });
      expect(ping.status).toBe(200);

      const listed = await admin('key', 'list', '--workspace', workspace.id);
      const keys = JSON.parse(listed.stdout) as KeyView[];
      expect(keys.map((k) => k.id)).toEqual([key.id]);
      expect(listed.stdout).not.toContain(key.key);

      const revoked = await admin('key', 'revoke', '--id', key.id);
      expect(revoked.code).toBe(0);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ id: key.id });
      const after = await stack.request('/ping', { headers: { 'x-api-key': key.key } });
      expect(after.status).toBe(401);
    },
    CLI_TEST_MS,
  );

  it(
    'changes plan and limits, printing the workspace with its effective limits',
    async () => {
      const workspace = await stack.createWorkspace('pro');
      const plan = await admin(
        'workspace',
        'plan',
        '--workspace',
        workspace.id,
        '--plan',
        'business',
      );
      expect(JSON.parse(plan.stdout)).toMatchObject({ plan: 'business', api_access: true });

      const limits = await admin(
        ...['workspace', 'limits', '--workspace', workspace.id, '--assets', '7'],
        ...['--monthly-quota', 'unlimited'],
      );
      const view = JSON.parse(limits.stdout) as WorkspaceView;
      expect(view.limits).toMatchObject({ assets: 7, monthlyQuota: null, ratePerMinute: 600 });
    },
    CLI_TEST_MS,
  );

  it(
    'defines a custom field, which the register then enforces on assets',
    async () => {
      const tenant = await stack.tenant('pro', 'write');
      const defined = await admin(
        ...['customfield', 'create', '--workspace', tenant.workspace.id, '--key', 'tier'],
        ...['--label', 'Tier', '--type', 'select', '--options', 'gold,silver', '--required'],
      );
      expect(defined.code).toBe(0);
      expect(JSON.parse(defined.stdout)).toMatchObject({
        key: 'tier',
        type: 'select',
        options: ['gold', 'silver'],
        required: true,
      });
      const refused = await tenant.post<ErrorBody>('/assets', { name: 'Desk' });
      expect(refused.body.message).toBe('custom_fields.tier is required');
      const created = await tenant.post('/assets', {
        name: 'Desk',
        custom_fields: { tier: 'gold' },
      });
      expect(created.status).toBe(201);
    },
    CLI_TEST_MS,
  );

  it(
    'prints the error body on stderr and exits non-zero',
    async () => {
      const unknown = await admin('key', 'revoke', '--id', 'key_nope');
      expect(unknown.code).not.toBe(0);
      expect(unknown.stdout).toBe('');
      expect(JSON.parse(unknown.stderr)).toEqual<ErrorBody>({
        statusCode: 404,
        error: 'Not Found',
        message: 'Key key_nope not found',
      });

      const invalid = await admin('workspace', 'create', '--name', 'X', '--plan', 'gold');
      expect(invalid.code).not.toBe(0);
      expect((JSON.parse(invalid.stderr) as ErrorBody).message).toBe(
        'plan must be one of free, pro, business, enterprise',
      );

      const usage = await admin('workspace', 'explode');
      expect(usage.code).not.toBe(0);
      expect((JSON.parse(usage.stderr) as ErrorBody).statusCode).toBe(400);
    },
    CLI_TEST_MS,
  );

  it(
    'says the stack is not running when nobody answers',
    async () => {
      const { code, stderr } = await stack.cliWithEnv(
        { ADMIN_QUEUE: `${stack.env.ADMIN_QUEUE}.nobody`, ADMIN_TIMEOUT_MS: '200' },
        ...['workspace', 'show', '--workspace', 'wsp_x'],
      );
      expect(code).not.toBe(0);
      expect(JSON.parse(stderr)).toMatchObject({ statusCode: 504 });
      expect(stderr).toContain('is the stack running');

      // The client declared the queue it waited on; leave the broker as we found it.
      const connection = await openConnection(stack.env.RABBITMQ_URL!, 'custodian-test-cleanup');
      const channel = await connection.createChannel();
      await channel.deleteQueue(`${stack.env.ADMIN_QUEUE}.nobody`);
      await connection.close();
    },
    CLI_TEST_MS,
  );
});
