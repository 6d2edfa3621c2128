import {
  RegisterRpc,
  type AssetDetail,
  type CallerContext,
  type CreatedConsoleEndpoint,
  type CreatedConsoleKey,
  type ErrorBody,
  type MemberView,
  type PersonDetail,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { randomUUID } from 'node:crypto';
import type { ConsoleClient } from './support/console-client';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('writes applied once: Idempotency-Key and redelivered requests (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(() => stack.stop());

  async function count(table: string, where: string, params: unknown[]): Promise<number> {
    const [row] = await stack.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM register.${table} WHERE ${where}`,
      params,
    );
    return row?.n ?? -1;
  }

  function post<T>(path: string, body: unknown, key?: string) {
    return tenant.request<T>(path, {
      method: 'POST',
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  }

  it('a retried POST /assets with its key is answered with the first answer and applied once', async () => {
    const key = randomUUID();
    const body = { name: 'Idempotent laptop', serial_number: 'IDEM-1' };
    const first = await post<AssetDetail>('/assets', body, key);
    expect(first.status).toBe(201);
    // The same body with its keys in another order is the same request.
    const again = await post<AssetDetail>(
      '/assets',
      { serial_number: 'IDEM-1', name: 'Idempotent laptop' },
      key,
    );
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await count('assets', 'serial_number = $1', ['IDEM-1'])).toBe(1);
    expect(
      await count('outbox', `event = 'asset.created' AND data->>'id' = $1`, [first.body.id]),
    ).toBe(1);
    // Without a key, the same body is a new asset.
    const other = await post<AssetDetail>('/assets', body);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('a retried PATCH with its key answers the first answer, also sent with an encoded path', async () => {
    const created = await post<AssetDetail>('/assets', { name: 'Patched twice' });
    const key = randomUUID();
    const patch = (path: string, body: unknown) =>
      tenant.request<AssetDetail>(path, {
        method: 'PATCH',
        body,
        headers: { 'idempotency-key': key },
      });
    const first = await patch(`/assets/${created.body.id}`, { name: 'Renamed once' });
    expect(first.status).toBe(200);
    // Renamed since by someone else: a retry of the first PATCH must not undo that.
    expect(
      (
        await tenant.request(`/assets/${created.body.id}`, {
          method: 'PATCH',
          body: { name: 'Renamed by another' },
        })
      ).status,
    ).toBe(200);
    // The same request, its path percent-encoded as a client library may send it.
    const encoded = `/assets/${encodeURIComponent(created.body.id).replace('a', '%61')}`;
    const again = await patch(encoded, { name: 'Renamed once' });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    const now = await tenant.request<AssetDetail>(`/assets/${created.body.id}`);
    expect(now.body.name).toBe('Renamed by another');
    // Another body under the key is another request: 422.
    expect((await patch(`/assets/${created.body.id}`, { name: 'Other' })).status).toBe(422);
  });

  it('answers concurrent twins with one write', async () => {
    const key = randomUUID();
    const body = { name: 'Twin', serial_number: 'IDEM-TWIN' };
    const answers = await Promise.all([1, 2, 3].map(() => post<AssetDetail>('/assets', body, key)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await count('assets', 'serial_number = $1', ['IDEM-TWIN'])).toBe(1);
  });

  it('refuses the key reused with another body or on another route with 422, writing nothing', async () => {
    const key = randomUUID();
    expect((await post('/assets', { name: 'First use' }, key)).status).toBe(201);
    const otherBody = await post<ErrorBody>('/assets', { name: 'Second use' }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message:
        'Idempotency-Key was already used with a different request (method, path or body); ' +
        'use a new key for a new request',
    });
    const otherRoute = await post<ErrorBody>('/people', { full_name: 'Second use' }, key);
    expect(otherRoute.status).toBe(422);
    expect(await count('assets', 'name = $1', ['Second use'])).toBe(0);
    expect(await count('people', 'full_name = $1', ['Second use'])).toBe(0);
  });

  it('keys belong to a workspace: another workspace may use the same key', async () => {
    const key = randomUUID();
    const other = await stack.tenant('pro', 'write');
    const mine = await post<PersonDetail>('/people', { full_name: 'Mine' }, key);
    const theirs = await other.request<PersonDetail>('/people', {
      method: 'POST',
      body: { full_name: 'Theirs' },
      headers: { 'idempotency-key': key },
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.full_name).toBe('Theirs');
  });

  it('keys belong to the API key that sent them: a second key of the workspace may use the same one', async () => {
    const key = randomUUID();
    const second = await stack.createKey(tenant.workspace.id, 'write');
    const secondTenant = new Tenant(stack, tenant.workspace, second);
    const mine = await post<PersonDetail>('/people', { full_name: 'First integration' }, key);
    const theirs = await secondTenant.request<PersonDetail>('/people', {
      method: 'POST',
      body: { full_name: 'Second integration' },
      headers: { 'idempotency-key': key },
    });
    // Before, the second key's request was the first one's twin: a 422 for its other body.
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.full_name).toBe('Second integration');
    // Each key's retry is still answered with its own first answer.
    const retried = await secondTenant.request<PersonDetail>('/people', {
      method: 'POST',
      body: { full_name: 'Second integration' },
      headers: { 'idempotency-key': key },
    });
    expect(retried.text).toBe(theirs.text);
  });

  it('evaluates a refused request again on retry: only applied requests are replayed', async () => {
    const key = randomUUID();
    // Refused by the register (no such person to check out to), after the gateway let it by.
    const body = { name: 'Refused', assigned_to_id: 'per_missing' };
    const bad = await post<ErrorBody>('/assets', body, key);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    const again = await post<ErrorBody>('/assets', body, key);
    expect(again.body).toEqual(bad.body);
    expect(await count('assets', 'name = $1', ['Refused'])).toBe(0);
    expect(await count('applied_requests', 'reply IS NULL', [])).toBe(0);
  });

  it('an invitation retried with its key sends one e-mail and invites once', async () => {
    const key = randomUUID();
    const body = { email: `idem-${randomUUID()}@example.com`, role: 'member' };
    const first = await post<MemberView>('/members', body, key);
    const again = await post<MemberView>('/members', body, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await count('invitations', 'member_id = $1', [first.body.id])).toBe(1);
    // What is kept for the replay is the reply alone: no invitation token.
    const [stored] = await stack.query<{ reply: string }>(
      `SELECT reply::text AS reply FROM register.applied_requests WHERE reply::text LIKE $1`,
      [`%${first.body.id}%`],
    );
    expect(stored?.reply).not.toMatch(/token/i);
  });

  it('refuses a malformed key with 400 naming the header', async () => {
    const response = await post<ErrorBody>('/assets', { name: 'x' }, 'x'.repeat(256));
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^Idempotency-Key must be/);
  });

  it('applies an RPC request the broker hands over twice once, and answers both alike', async () => {
    const client = new RmqRpcClient({
      url: RABBITMQ_URL,
      queue: stack.env.REGISTER_QUEUE ?? '',
      timeoutMs: 5_000,
      connectionName: 'custodian-test-redelivery',
      serviceName: 'register',
    });
    await client.connect();
    try {
      const caller: CallerContext = {
        workspaceId: tenant.workspace.id,
        keyId: tenant.key.id,
        scope: 'write',
        plan: 'pro',
        limits: {
          ratePerMinute: null,
          monthlyQuota: null,
          assets: null,
          people: null,
          seats: null,
        },
      };
      const message = { caller, body: { name: 'Redelivered', serial_number: 'IDEM-RPC' } };
      const id = randomUUID();
      // The same message id twice, as a redelivery after a channel died mid-handler would be.
      const [first, second] = await Promise.all([
        client.send(RegisterRpc.assetsCreate, message, 5_000, { id }),
        client.send(RegisterRpc.assetsCreate, message, 5_000, { id }),
      ]);
      expect(second).toEqual(first);
      const third = await client.send(RegisterRpc.assetsCreate, message, 5_000, { id });
      expect(third).toEqual(first);
      expect(await count('assets', 'serial_number = $1', ['IDEM-RPC'])).toBe(1);
      expect(
        await count('outbox', `event = 'asset.created' AND data->>'id' = $1`, [first.id]),
      ).toBe(1);
    } finally {
      await client.close();
    }
  });
  describe('on the console: every write takes an Idempotency-Key, scoped to the member', () => {
    let owner: ConsoleClient;
    let admin: ConsoleClient;

    beforeAll(async () => {
      owner = await consoleOwner(stack, tenant.workspace.id, 'owner@idem.example');
      admin = await consoleMember(tenant, 'admin', 'admin@idem.example');
    }, 30_000);

    const keyed = (key: string) => ({ 'idempotency-key': key });

    it('creates an asset once when the console retries its POST with the key', async () => {
      const key = randomUUID();
      const body = { name: 'Console retry', serial_number: 'IDEM-CONSOLE-1' };
      const first = await owner.post<AssetDetail>('/console/api/assets', body, keyed(key));
      const again = await owner.post<AssetDetail>('/console/api/assets', body, keyed(key));
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.text).toBe(first.text);
      expect(await count('assets', 'serial_number = $1', ['IDEM-CONSOLE-1'])).toBe(1);
      // Another member's key is theirs: the same value with another body is a new write.
      const theirs = await admin.post<AssetDetail>(
        '/console/api/assets',
        { name: 'Admin asset', serial_number: 'IDEM-CONSOLE-2' },
        keyed(key),
      );
      expect(theirs.status).toBe(201);
      // The member's own key with another body is refused, naming the header.
      const reused = await owner.post<ErrorBody>(
        '/console/api/assets',
        { name: 'Other body' },
        keyed(key),
      );
      expect(reused.status).toBe(422);
      expect(reused.body.message).toMatch(/Idempotency-Key/);
    });

    it("applies the worker's endpoint writes once: create, rotate and delete retried", async () => {
      const url = `http://127.0.0.1:9/idem-${randomUUID()}`;
      const createKey = randomUUID();
      const created = await owner.post<CreatedConsoleEndpoint>(
        '/console/api/webhooks',
        { url, events: ['*'] },
        keyed(createKey),
      );
      const createdAgain = await owner.post<CreatedConsoleEndpoint>(
        '/console/api/webhooks',
        { url, events: ['*'] },
        keyed(createKey),
      );
      // Before: the retry was a second create, refused 409 for the URL the first one took.
      expect([created.status, createdAgain.status]).toEqual([201, 201]);
      expect(createdAgain.body.id).toBe(created.body.id);
      expect(createdAgain.body.secret).toBe(created.body.secret);

      const rotateKey = randomUUID();
      const rotate = () =>
        owner.post<{ secret: string; previous: { secret: string } | null }>(
          `/console/api/webhooks/${created.body.id}/secret/rotate`,
          { overlap_hours: 24 },
          keyed(rotateKey),
        );
      const rotated = await rotate();
      const rotatedAgain = await rotate();
      expect([rotated.status, rotatedAgain.status]).toEqual([200, 200]);
      expect(rotatedAgain.body.secret).toBe(rotated.body.secret);
      // The secret create gave out still signs (the previous one): rotated once, not twice.
      expect(rotatedAgain.body.previous?.secret).toBe(created.body.secret);

      const deleteKey = randomUUID();
      const deleted = await owner.request(
        'DELETE',
        `/console/api/webhooks/${created.body.id}`,
        undefined,
        keyed(deleteKey),
      );
      const deletedAgain = await owner.request(
        'DELETE',
        `/console/api/webhooks/${created.body.id}`,
        undefined,
        keyed(deleteKey),
      );
      expect([deleted.status, deletedAgain.status]).toEqual([200, 200]);
      expect(deletedAgain.text).toBe(deleted.text);
    });

    it('creates an API key once: a retry is told which key the first request made', async () => {
      const key = randomUUID();
      const name = `Idempotent key ${key.slice(0, 8)}`;
      const first = await owner.post<CreatedConsoleKey>(
        '/console/api/keys',
        { name, scope: 'read' },
        keyed(key),
      );
      const again = await owner.post<ErrorBody>(
        '/console/api/keys',
        { name, scope: 'read' },
        keyed(key),
      );
      expect(first.status).toBe(201);
      expect(again.status).toBe(409);
      expect(again.body.message).toContain(first.body.id);
      const [row] = await stack.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM gateway.api_keys WHERE name = $1`,
        [name],
      );
      expect(row?.n).toBe(1);
    });
  });
});
