import {
  GatewayAdminPatterns,
  type Asset,
  type AssetSummary,
  type CreatedConsoleEndpoint,
  type DeletedAsset,
  type ErrorBody,
  type EventEnvelope,
  type Page,
  type PersonDetail,
  type ScannedAsset,
} from '@custodian/contracts';
import { WebhookReceiver, envelopeErrors, eventually } from '@custodian/testing';
import type { ConsoleClient } from './support/console-client';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

/**
 * Issue 14 over HTTP: the register's assets in the console. Each role may do what the matrix
 * in docs/decisions.md says and is refused the rest; console writes are the API's writes
 * (same validation, limits and events); the bin and scans fire their events at a receiver.
 */

type Role = 'owner' | 'admin' | 'manager' | 'member';
const ROLES: Role[] = ['owner', 'admin', 'manager', 'member'];
/** Who may change assets (assets.manage); everyone may see them and scan. */
const MANAGES: Record<Role, boolean> = { owner: true, admin: true, manager: true, member: false };

describe('console assets: roles, the same domain services, bin and scans (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  const as = {} as Record<Role, ConsoleClient>;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    as.owner = await consoleOwner(stack, tenant.workspace.id, 'owner@assets.example');
    as.admin = await consoleMember(tenant, 'admin', 'admin@assets.example');
    as.manager = await consoleMember(tenant, 'manager', 'manager@assets.example');
    as.member = await consoleMember(tenant, 'member', 'member@assets.example');
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  it('walks the role matrix of every asset route', async () => {
    const seeded = await tenant.post<Asset>('/assets', { name: 'Seeded', asset_tag: 'SEED-1' });
    expect(seeded.status).toBe(201);
    for (const role of ROLES) {
      const client = as[role];
      const seen = async (what: string, status: Promise<number>, expected: number) =>
        expect({ role, what, status: await status }).toEqual({ role, what, status: expected });
      const status = async (pending: Promise<{ status: number }>) => (await pending).status;

      await seen('list', status(client.get('/console/api/assets')), 200);
      await seen('get', status(client.get(`/console/api/assets/${seeded.body.id}`)), 200);
      await seen('bin', status(client.get('/console/api/assets/deleted')), 200);
      await seen('people', status(client.get('/console/api/people')), 200);
      await seen('scan', status(client.post('/console/api/assets/scan', { code: 'seed-1' })), 200);

      const created = await client.post<Asset & ErrorBody>('/console/api/assets', {
        name: `${role}'s asset`,
      });
      if (!MANAGES[role]) {
        expect(created.status).toBe(403);
        expect(created.body.message).toBe(
          `Your role (${role}) cannot change assets; ask an owner or admin`,
        );
        const path = `/console/api/assets/${seeded.body.id}`;
        await seen('patch', status(client.patch(path, { name: 'x' })), 403);
        await seen('delete', status(client.delete(path)), 403);
        await seen('restore', status(client.post(`${path}/restore`)), 403);
        continue;
      }
      expect(created.status).toBe(201);
      const path = `/console/api/assets/${created.body.id}`;
      await seen('patch', status(client.patch(path, { condition: 'fair' })), 200);
      await seen('delete', status(client.delete(path)), 200);
      await seen('restore', status(client.post(`${path}/restore`)), 200);
    }
    // The member's refusals changed nothing.
    const after = await tenant.get<Asset>(`/assets/${seeded.body.id}`);
    expect(after.body.name).toBe('Seeded');
  }, 60_000);

  it('writes through the same services as the API: one asset, one validation, one limit', async () => {
    const owner = as.owner;
    const made = await owner.post<Asset>('/console/api/assets', {
      name: 'Console camera',
      serial_number: 'CC-1',
      category: 'Cameras',
      condition: 'new',
    });
    expect(made.status).toBe(201);
    const viaApi = await tenant.get<Asset>(`/assets/${made.body.id}`);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toEqual(made.body);

    // The same refusal, word for word, from either door.
    const bad = { name: 'x', condition: 'mint' };
    const fromConsole = await owner.post<ErrorBody>('/console/api/assets', bad);
    const fromApi = await tenant.post<ErrorBody>('/assets', bad);
    expect(fromConsole.status).toBe(400);
    expect(fromConsole.body).toEqual(fromApi.body);
    expect(fromConsole.body.message).toMatch(/^condition must be one of/);

    // The plan's asset limit applies to the console too.
    const count = (await tenant.get<Page<AssetSummary>>('/assets?page=1')).body.total;
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      assets: String(count),
    });
    const refused = await owner.post<ErrorBody>('/console/api/assets', { name: 'One too many' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`Asset limit of ${count} reached on the pro plan`);
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      assets: 'plan',
    });
  });

  it('deletes to the bin and restores, with the API seeing each step and a receiver each event', async () => {
    const owner = as.owner;
    const endpoint = await owner.post<CreatedConsoleEndpoint>('/console/api/webhooks', {
      url: receiver.url('/bin'),
      events: ['asset.deleted', 'asset.restored', 'asset.condition_changed', 'asset.scanned'],
    });
    expect(endpoint.status).toBe(201);
    const holder = await tenant.post<PersonDetail>('/people', { full_name: 'Katherine Johnson' });
    const asset = await owner.post<Asset>('/console/api/assets', {
      name: 'Oscilloscope',
      asset_tag: 'OSC-1',
      serial_number: 'RIGOL-77',
      assigned_to_id: holder.body.id,
    });
    expect(asset.status).toBe(201);
    const path = `/console/api/assets/${asset.body.id}`;

    const whileOut = await owner.delete<ErrorBody>(path);
    expect(whileOut.status).toBe(409);
    expect(whileOut.body.message).toBe(
      `Asset ${asset.body.id} is checked out to Katherine Johnson; check it in before deleting it`,
    );
    const checkedIn = await owner.patch<Asset>(path, { assigned_to_id: null, condition: 'poor' });
    expect(checkedIn.status).toBe(200);

    const scanned = await owner.post<ScannedAsset>('/console/api/assets/scan', {
      code: ' rigol-77 ',
    });
    expect(scanned.status).toBe(200);
    expect(scanned.body).toMatchObject({ matched: 'serial_number', asset: { id: asset.body.id } });
    const unknown = await owner.post<ErrorBody>('/console/api/assets/scan', { code: 'NOPE' });
    expect([unknown.status, unknown.body.message]).toEqual([
      404,
      'No asset has the asset tag or serial number NOPE',
    ]);

    const deleted = await owner.delete<DeletedAsset>(path);
    expect(deleted.status).toBe(200);
    expect((await tenant.get(`/assets/${asset.body.id}`)).status).toBe(404);
    const listed = await tenant.get<Page<AssetSummary>>('/assets?page=1&search=oscilloscope');
    expect(listed.body.total).toBe(0);
    const bin = await owner.get<DeletedAsset[]>('/console/api/assets/deleted');
    expect(bin.body[0]).toEqual(deleted.body);

    const restored = await owner.post<Asset>(`${path}/restore`);
    expect(restored.status).toBe(200);
    expect((await tenant.get<Asset>(`/assets/${asset.body.id}`)).body).toEqual(restored.body);
    const again = await owner.post<ErrorBody>(`${path}/restore`);
    expect([again.status, again.body.message]).toEqual([
      409,
      `Asset ${asset.body.id} is not deleted`,
    ]);

    const envelopes = await eventually(() => {
      const got = receiver
        .on('/bin')
        .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Record<string, unknown>>);
      if (got.length < 4) throw new Error(`${got.length} of 4 events`);
      return Promise.resolve(got);
    });
    for (const envelope of envelopes) expect(envelopeErrors(envelope)).toEqual([]);
    const byKind = new Map(envelopes.map((envelope) => [envelope.event, envelope.data]));
    expect([...byKind.keys()].sort()).toEqual([
      'asset.condition_changed',
      'asset.deleted',
      'asset.restored',
      'asset.scanned',
    ]);
    expect(byKind.get('asset.condition_changed')).toMatchObject({ from: null, to: 'poor' });
    expect(byKind.get('asset.scanned')).toMatchObject({
      code: 'rigol-77',
      matched: 'serial_number',
    });
    expect(byKind.get('asset.deleted')).toMatchObject({ id: asset.body.id, condition: 'poor' });
    expect(byKind.get('asset.restored')).toEqual(restored.body);
  }, 30_000);

  it('keeps the register in the console on a plan without API access', async () => {
    const free = await stack.createWorkspace('free', 'Free Co');
    const owner = await consoleOwner(stack, free.id, 'owner@free.example');
    const made = await owner.post<Asset>('/console/api/assets', { name: 'Free laptop' });
    expect(made.status).toBe(201);
    const page = await owner.get<Page<AssetSummary>>('/console/api/assets?search=free');
    expect(page.body).toMatchObject({ page: 1, total: 1, data: [{ id: made.body.id }] });
  });
});
