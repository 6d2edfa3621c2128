import {
  WorkerAdminPatterns,
  type AssetDetail,
  type CreatedWebhookView,
  type ErrorBody,
  type EventEnvelope,
  type Maintenance,
  type ActivityEntry,
  type Page,
} from '@custodian/contracts';
import { WebhookReceiver, envelopeErrors, eventually } from '@custodian/testing';
import { randomUUID } from 'node:crypto';
import { consoleMember } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

/**
 * Issue 33, item 5, maintenance over HTTP: log, list, filter, fetch, change and resolve; the
 * asset's status taken and given back with asset.updated at a real receiver; workspaces apart;
 * bad input named; an Idempotency-Key replayed. Every answer is checked against
 * docs/openapi.json (the stack's contract check).
 */
describe('maintenance (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  let reader: Tenant;
  let stranger: Tenant;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    reader = new Tenant(
      stack,
      tenant.workspace,
      await stack.createKey(tenant.workspace.id, 'read'),
    );
    stranger = await stack.tenant('pro', 'write');
    await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url('/maintenance'),
      events: 'maintenance.created,maintenance.resolved,asset.updated',
    });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  const asset = async (name: string, status = 'active') => {
    const made = await tenant.post<AssetDetail>('/assets', { name, status });
    expect(made.status).toBe(201);
    return made.body;
  };

  /** The envelopes the receiver got that mention `id`, once `count` of them are there. */
  const delivered = (id: string, count: number) =>
    eventually(() => {
      const envelopes = receiver
        .on('/maintenance')
        .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Record<string, unknown>>)
        .filter((envelope) => JSON.stringify(envelope.data).includes(id));
      if (envelopes.length < count) throw new Error(`${envelopes.length} of ${count}`);
      return Promise.resolve(envelopes);
    });

  it('logs, lists, filters, fetches, changes and resolves a record', async () => {
    const printer = await asset('Office printer');
    const made = await tenant.post<Maintenance>(`/assets/${printer.id}/maintenance`, {
      title: 'Fuser unit',
      type: 'repair',
      notes: 'Paper jams',
      scheduled_for: '2026-12-03',
      cost: '120.00',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      asset: { id: printer.id, name: 'Office printer', asset_tag: printer.asset_tag },
      title: 'Fuser unit',
      type: 'repair',
      notes: 'Paper jams',
      scheduled_for: '2026-12-03',
      cost: '120.00',
      status: 'open',
      asset_status_before: null,
      resolved_at: null,
    });
    expect(made.body.id).toMatch(/^mnt_/);
    const second = await tenant.post<Maintenance>(`/assets/${printer.id}/maintenance`, {
      title: 'Yearly check',
      type: 'inspection',
    });
    expect(second.status).toBe(201);

    const ofAsset = await reader.get<Page<Maintenance>>(`/assets/${printer.id}/maintenance`);
    expect(ofAsset.status).toBe(200);
    expect(ofAsset.body.data.map((record) => record.id)).toEqual([second.body.id, made.body.id]);
    expect(ofAsset.body).toMatchObject({ page: 1, pageSize: 50, total: 2 });

    const changed = await tenant.patch<Maintenance>(`/maintenance/${made.body.id}`, {
      title: 'Fuser and rollers',
      cost: '150.00',
      scheduled_for: null,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      title: 'Fuser and rollers',
      cost: '150.00',
      scheduled_for: null,
    });
    const resolved = await tenant.post<Maintenance>(`/maintenance/${made.body.id}/resolve`, {
      notes: 'Replaced both',
      cost: '162.40',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolution_notes: 'Replaced both',
      cost: '162.40',
    });
    expect(resolved.body.resolved_at).not.toBeNull();
    expect((await reader.get<Maintenance>(`/maintenance/${made.body.id}`)).body).toEqual(
      resolved.body,
    );

    const open = await reader.get<Page<Maintenance>>(
      `/maintenance?status=open&asset_id=${printer.id}`,
    );
    expect(open.body.data.map((record) => record.id)).toEqual([second.body.id]);
    const done = await reader.get<Page<Maintenance>>(
      `/maintenance?status=resolved&asset_id=${printer.id}`,
    );
    expect(done.body.data.map((record) => record.id)).toEqual([made.body.id]);
    const paged = await reader.get<Page<Maintenance>>(
      `/maintenance?asset_id=${printer.id}&page=2&pageSize=1`,
    );
    expect(paged.body).toMatchObject({ page: 2, pageSize: 1, total: 2 });
    expect(paged.body.data.map((record) => record.id)).toEqual([made.body.id]);

    const again = await tenant.post<ErrorBody>(`/maintenance/${made.body.id}/resolve`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(made.body.id);
  });

  it('puts the asset in maintenance and back, each with asset.updated and its maintenance event', async () => {
    const van = await asset('Delivery van', 'retired');
    const made = await tenant.post<Maintenance>(`/assets/${van.id}/maintenance`, {
      title: 'Gearbox',
      type: 'repair',
      set_asset_status: true,
    });
    expect(made.status).toBe(201);
    expect(made.body.asset_status_before).toBe('retired');
    expect((await reader.get<AssetDetail>(`/assets/${van.id}`)).body.status).toBe('maintenance');
    const resolved = await tenant.post<Maintenance>(`/maintenance/${made.body.id}/resolve`, {});
    expect(resolved.status).toBe(200);
    expect((await reader.get<AssetDetail>(`/assets/${van.id}`)).body.status).toBe('retired');

    const got = await delivered(van.id, 4);
    for (const envelope of got) expect(envelopeErrors(envelope)).toEqual([]);
    const seen = got.map((envelope) => `${envelope.event}:${String(envelope.data.status)}`);
    expect(seen.sort()).toEqual(
      [
        'asset.updated:maintenance',
        'asset.updated:retired',
        'maintenance.created:open',
        'maintenance.resolved:resolved',
      ].sort(),
    );
  });

  it("answers another workspace's record and asset 404, and a read key's write 403", async () => {
    const mine = await asset('Mine only');
    const made = await tenant.post<Maintenance>(`/assets/${mine.id}/maintenance`, {
      title: 'Private',
      type: 'service',
    });
    expect(made.status).toBe(201);
    for (const answer of [
      await stranger.get<ErrorBody>(`/maintenance/${made.body.id}`),
      await stranger.patch<ErrorBody>(`/maintenance/${made.body.id}`, { title: 'Taken' }),
      await stranger.post<ErrorBody>(`/maintenance/${made.body.id}/resolve`, {}),
      await stranger.get<ErrorBody>(`/assets/${mine.id}/maintenance`),
      await stranger.post<ErrorBody>(`/assets/${mine.id}/maintenance`, {
        title: 'x',
        type: 'repair',
      }),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    const listed = await stranger.get<Page<Maintenance>>(`/maintenance?asset_id=${mine.id}`);
    expect(listed.body.total).toBe(0);
    const refused = await reader.post<ErrorBody>(`/assets/${mine.id}/maintenance`, {
      title: 'x',
      type: 'repair',
    });
    expect(refused.status).toBe(403);
    expect((await tenant.get<Maintenance>(`/maintenance/${made.body.id}`)).body.title).toBe(
      'Private',
    );
  });

  it('answers bad input with a 400 naming the field, never a 500', async () => {
    const drill = await asset('Drill');
    const cases: Array<[string, unknown, string]> = [
      ['POST', { type: 'repair' }, 'title'],
      [
        'POST',
        { title: 'x', type: 'polish' },
        'type must be one of repair, service, inspection, upgrade',
      ],
      ['POST', { title: 'x', type: 'repair', cost: '1.234' }, 'cost must match'],
      [
        'POST',
        { title: 'x', type: 'repair', scheduled_for: '03/12' },
        'scheduled_for must be a date (YYYY-MM-DD)',
      ],
      [
        'POST',
        { title: 'x', type: 'repair', set_asset_status: 'yes' },
        'set_asset_status must be true or false',
      ],
      ['POST', { title: 'x', type: 'repair', status: 'resolved' }, 'status'],
    ];
    for (const [, body, named] of cases) {
      const answer = await tenant.post<ErrorBody>(`/assets/${drill.id}/maintenance`, body);
      expect({ named, status: answer.status }).toEqual({ named, status: 400 });
      expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(answer.body.message).toContain(named);
    }
    const made = await tenant.post<Maintenance>(`/assets/${drill.id}/maintenance`, {
      title: 'Chuck',
      type: 'repair',
    });
    const patch = await tenant.patch<ErrorBody>(`/maintenance/${made.body.id}`, { title: null });
    expect(patch.status).toBe(400);
    expect(patch.body.message).toContain('title');
    const resolve = await tenant.post<ErrorBody>(`/maintenance/${made.body.id}/resolve`, {
      cost: 12,
    });
    expect(resolve.status).toBe(400);
    expect(resolve.body.message).toContain('cost');
    const list = await reader.get<ErrorBody>('/maintenance?status=closed');
    expect(list.status).toBe(400);
    expect(list.body.message).toContain('status must be one of open, resolved');
    const page = await reader.get<ErrorBody>('/maintenance?pageSize=1000');
    expect(page.status).toBe(400);
    expect(page.body.message).toContain('pageSize');
    for (const id of ['nope', 'mnt_' + 'x'.repeat(80), '%00']) {
      for (const path of [`/maintenance/${id}`, `/assets/${id}/maintenance`]) {
        const answer = await reader.get<ErrorBody>(path);
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      }
    }
    // The gateway refuses a NUL in the query before the register sees it.
    const nul = await reader.get<ErrorBody>('/maintenance?asset_id=%00');
    expect(nul.status).toBe(400);
  });

  it('replays a create and a resolve sent again with the same Idempotency-Key', async () => {
    const laptop = await asset('Laptop');
    const key = randomUUID();
    const body = { title: 'Keyboard', type: 'repair', set_asset_status: true };
    const send = (path: string, payload: unknown, idempotencyKey: string) =>
      tenant.request<Maintenance>(path, {
        method: 'POST',
        body: payload,
        headers: { 'idempotency-key': idempotencyKey },
      });
    const created = await send(`/assets/${laptop.id}/maintenance`, body, key);
    expect(created.status).toBe(201);
    const retried = await send(`/assets/${laptop.id}/maintenance`, body, key);
    expect(retried.status).toBe(201);
    expect(retried.text).toBe(created.text);
    const listed = await reader.get<Page<Maintenance>>(`/assets/${laptop.id}/maintenance`);
    expect(listed.body.total).toBe(1);

    const resolveKey = randomUUID();
    const path = `/maintenance/${created.body.id}/resolve`;
    const resolved = await send(path, { notes: 'New keyboard' }, resolveKey);
    expect(resolved.status).toBe(200);
    // Applied once: the retry answers the same resolve, not a 409.
    const again = await send(path, { notes: 'New keyboard' }, resolveKey);
    expect([again.status, again.text]).toEqual([200, resolved.text]);
    expect((await reader.get<AssetDetail>(`/assets/${laptop.id}`)).body.status).toBe('active');
  });

  it('in the console: every role sees the records, a manager logs and resolves, a member may not', async () => {
    const forklift = await asset('Forklift');
    const manager = await consoleMember(tenant, 'manager', 'manager@maintenance.example');
    const member = await consoleMember(tenant, 'member', 'member@maintenance.example');
    const refused = await member.post<ErrorBody>(`/console/api/assets/${forklift.id}/maintenance`, {
      title: 'Forks',
      type: 'repair',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('log, change or resolve maintenance records');
    const logged = await manager.post<Maintenance>(
      `/console/api/assets/${forklift.id}/maintenance`,
      { title: 'Forks', type: 'repair', set_asset_status: true },
    );
    expect([logged.status, logged.body.asset_status_before]).toEqual([201, 'active']);
    const seen = await member.get<Page<Maintenance>>('/console/api/maintenance?status=open');
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((record) => record.id)).toContain(logged.body.id);
    const ofAsset = await member.get<Page<Maintenance>>(
      `/console/api/assets/${forklift.id}/maintenance`,
    );
    expect(ofAsset.body.data.map((record) => record.id)).toEqual([logged.body.id]);
    expect(
      (await member.post(`/console/api/maintenance/${logged.body.id}/resolve`, {})).status,
    ).toBe(403);
    const resolved = await manager.post<Maintenance>(
      `/console/api/maintenance/${logged.body.id}/resolve`,
      { notes: 'Forks straightened' },
    );
    expect([resolved.status, resolved.body.status]).toEqual([200, 'resolved']);
    expect((await reader.get<AssetDetail>(`/assets/${forklift.id}`)).body.status).toBe('active');
    // In the asset's history: the record's entries name the asset as their related record.
    const feed = await manager.get<{ data: ActivityEntry[] }>(
      `/console/api/activity?record_id=${forklift.id}`,
    );
    const entries = feed.body.data.filter((entry) => entry.record_type === 'maintenance');
    expect(entries.map((entry) => [entry.action, entry.source, entry.related_id])).toEqual([
      ['resolved', 'console', forklift.id],
      ['created', 'console', forklift.id],
    ]);
  });
});
