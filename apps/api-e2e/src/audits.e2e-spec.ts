import {
  WorkerAdminPatterns,
  type AssetDetail,
  type Audit,
  type AuditItem,
  type AuditScan,
  type CreatedWebhookView,
  type ErrorBody,
  type EventEnvelope,
  type Page,
} from '@custodian/contracts';
import { WebhookReceiver, envelopeErrors, eventually } from '@custodian/testing';
import { consoleMember } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

/**
 * Audits over HTTP (the scenario): a three-level location tree with 10 assets under
 * it, an audit of the top with include_children, 7 expected assets scanned (one where it was
 * not: misplaced) and one not expected at all; completed, the real receiver gets
 * audit.started, exactly three audit.item_missing and audit.completed with the counts. Also
 * the repeat scan, the 409s, cancel, bad input named and workspaces apart. Every answer is
 * checked against docs/openapi.json (the stack's contract check).
 */
describe('audits (e2e)', () => {
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
      url: receiver.url('/audits'),
      events: 'audit.started,audit.completed,audit.item_missing',
    });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  const place = async (name: string, parentId?: string) => {
    const made = await tenant.post<{ id: string }>('/locations', {
      name,
      ...(parentId ? { parent_id: parentId } : {}),
    });
    expect(made.status).toBe(201);
    return made.body.id;
  };

  const asset = async (name: string, locationId?: string) => {
    const made = await tenant.post<AssetDetail>('/assets', {
      name,
      ...(locationId ? { location_id: locationId } : {}),
    });
    expect(made.status).toBe(201);
    return made.body;
  };

  const opened = (id: string) =>
    eventually(async () => {
      const fetched = await tenant.get<Audit>(`/audits/${id}`);
      if (fetched.body.status !== 'open') throw new Error(fetched.body.status);
      return fetched.body;
    });

  /** The envelopes of the receiver about audit `id`. */
  const envelopesOf = (id: string) =>
    receiver
      .on('/audits')
      .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Record<string, unknown>>)
      .filter((envelope) => JSON.stringify(envelope.data).includes(id));

  it('runs the issue’s scenario: a tree, 7 found, 1 misplaced, 1 unexpected, 3 missing', async () => {
    const site = await place('Audit HQ');
    const floor = await place('Floor 2', site);
    const room = await place('Room 201', floor);
    const inside: AssetDetail[] = [];
    for (const [where, count] of [
      [site, 3],
      [floor, 3],
      [room, 4],
    ] as const) {
      for (let n = 0; n < count; n += 1)
        inside.push(await asset(`Audited ${inside.length}`, where));
    }
    const stray = await asset('Stray laptop');

    const made = await tenant.post<Audit>('/audits', {
      name: 'HQ stock-take',
      location_id: site,
      include_children: true,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      status: 'starting',
      location: { id: site, name: 'Audit HQ' },
      include_children: true,
      category: null,
    });
    const open = await opened(made.body.id);
    expect(open.counts).toEqual({
      expected: 10,
      found: 0,
      missing: 10,
      unexpected: 0,
      misplaced: 0,
    });

    const scan = (body: Record<string, unknown>) =>
      tenant.post<AuditScan>(`/audits/${made.body.id}/scans`, body);
    for (const each of inside.slice(0, 6)) {
      const found = await scan({ asset_tag: each.asset_tag });
      expect([found.status, found.body.outcome, found.body.repeated]).toEqual([
        201,
        'found',
        false,
      ]);
    }
    // In Room 201 at start, scanned with the floor as where the scanner is: misplaced.
    const roomAsset = inside[9] as AssetDetail;
    const misplaced = await scan({ asset_id: roomAsset.id, location_id: floor });
    expect(misplaced.status).toBe(201);
    expect(misplaced.body).toMatchObject({
      outcome: 'misplaced',
      location: { id: floor, name: 'Floor 2' },
      asset: { id: roomAsset.id, asset_tag: roomAsset.asset_tag },
    });
    const unexpected = await scan({ asset_tag: stray.asset_tag });
    expect([unexpected.status, unexpected.body.outcome]).toEqual([201, 'unexpected']);
    // Again: 200 with the first scan.
    const again = await scan({ asset_tag: (inside[0] as AssetDetail).asset_tag });
    expect([again.status, again.body.outcome, again.body.repeated]).toEqual([200, 'found', true]);
    const unknown = await tenant.post<ErrorBody>(`/audits/${made.body.id}/scans`, {
      asset_tag: 'NO-SUCH-TAG',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('asset_tag');
    // The asset is marked scanned, as a console scan does.
    const seen = await tenant.get<AssetDetail>(`/assets/${roomAsset.id}`);
    expect(seen.body.last_scanned_at).not.toBeNull();

    const live = await reader.get<Audit>(`/audits/${made.body.id}`);
    expect(live.body.counts).toEqual({
      expected: 10,
      found: 7,
      missing: 3,
      unexpected: 1,
      misplaced: 1,
    });
    const missingNow = await reader.get<Page<AuditItem>>(
      `/audits/${made.body.id}/items?state=missing`,
    );
    expect(missingNow.body.total).toBe(3);
    expect(missingNow.body.data.map((item) => item.asset.id).sort()).toEqual(
      inside
        .slice(6, 9)
        .map((each) => each.id)
        .sort(),
    );
    const scans = await reader.get<Page<AuditScan>>(`/audits/${made.body.id}/scans?pageSize=5`);
    expect([scans.body.total, scans.body.data.length]).toEqual([8, 5]);
    const strays = await reader.get<Page<AuditScan>>(
      `/audits/${made.body.id}/scans?outcome=unexpected`,
    );
    expect(strays.body.data.map((each) => each.asset.id)).toEqual([stray.id]);

    const completing = await tenant.post<Audit>(`/audits/${made.body.id}/complete`, {});
    expect(completing.status).toBe(202);
    expect(completing.body.status).toBe('completing');
    const done = await eventually(async () => {
      const fetched = await tenant.get<Audit>(`/audits/${made.body.id}`);
      if (fetched.body.status !== 'completed') throw new Error(fetched.body.status);
      return fetched.body;
    });
    expect(done).toMatchObject({
      progress: null,
      completion: { move_found: false, mark_missing_lost: false },
      counts: { expected: 10, found: 7, missing: 3, unexpected: 1, misplaced: 1 },
    });
    const again409 = await tenant.post<ErrorBody>(`/audits/${made.body.id}/complete`, {});
    expect(again409.status).toBe(409);
    const late = await tenant.post<ErrorBody>(`/audits/${made.body.id}/scans`, {
      asset_id: (inside[7] as AssetDetail).id,
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('completed');

    const envelopes = await eventually(() => {
      const got = envelopesOf(made.body.id);
      const completed = got.filter((envelope) => envelope.event === 'audit.completed');
      const missing = got.filter((envelope) => envelope.event === 'audit.item_missing');
      if (completed.length < 1 || missing.length < 3) {
        throw new Error(`${completed.length} completed, ${missing.length} missing`);
      }
      return Promise.resolve(got);
    });
    const kinds = (kind: string) => envelopes.filter((envelope) => envelope.event === kind);
    expect(kinds('audit.started')).toHaveLength(1);
    expect(kinds('audit.item_missing')).toHaveLength(3);
    expect(kinds('audit.completed')).toHaveLength(1);
    expect(kinds('audit.completed')[0]?.data).toMatchObject({
      id: made.body.id,
      status: 'completed',
      counts: { found: 7, missing: 3, unexpected: 1, misplaced: 1 },
    });
    expect(
      kinds('audit.item_missing')
        .map((envelope) => (envelope.data.asset as { id: string }).id)
        .sort(),
    ).toEqual(
      inside
        .slice(6, 9)
        .map((each) => each.id)
        .sort(),
    );
    for (const envelope of envelopes) {
      expect({ event: envelope.event, errors: envelopeErrors(envelope) }).toEqual({
        event: envelope.event,
        errors: [],
      });
    }
  });

  it('cancels an open audit, refuses what follows, and names bad input', async () => {
    const depot = await place('Audit depot');
    await asset('Depot pallet', depot);
    const made = await tenant.post<Audit>('/audits', { name: 'Depot', location_id: depot });
    expect(made.status).toBe(201);
    await opened(made.body.id);
    const cancelled = await tenant.post<Audit>(`/audits/${made.body.id}/cancel`, {});
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    expect((await tenant.post(`/audits/${made.body.id}/cancel`, {})).status).toBe(409);
    expect((await tenant.post(`/audits/${made.body.id}/complete`, {})).status).toBe(409);
    const listed = await reader.get<Page<Audit>>('/audits?status=cancelled');
    expect(listed.body.data.map((audit) => audit.id)).toContain(made.body.id);

    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'x' }, 400, 'location_id, category_id, asset_ids'],
      [{ name: 'x', location_id: depot, category_id: `cat_${'0'.repeat(26)}` }, 400, 'category_id'],
      [
        { name: 'x', asset_ids: [`ast_${'0'.repeat(26)}`], include_children: true },
        400,
        'include_children',
      ],
      [{ name: 'x', location_id: `loc_${'0'.repeat(26)}` }, 400, 'location_id: loc_'],
      [{ name: 'x', location_id: depot, due_at: '2020-01-01T00:00:00Z' }, 400, 'due_at'],
      [{ name: 'x', asset_ids: [] }, 400, 'asset_ids'],
    ];
    for (const [body, status, named] of cases) {
      const answer = await tenant.post<ErrorBody>('/audits', body);
      expect({ named, status: answer.status }).toEqual({ named, status });
      expect(answer.body.message).toContain(named);
    }
  });

  it("keeps workspaces apart, and a read key's write is 403", async () => {
    const made = await tenant.post<Audit>('/audits', {
      name: 'Private',
      asset_ids: [(await asset('Private asset')).id],
    });
    expect(made.status).toBe(201);
    for (const path of [
      `/audits/${made.body.id}`,
      `/audits/${made.body.id}/scans`,
      `/audits/${made.body.id}/items`,
    ]) {
      expect((await stranger.get<ErrorBody>(path)).status).toBe(404);
    }
    expect((await stranger.post<ErrorBody>(`/audits/${made.body.id}/cancel`, {})).status).toBe(404);
    expect((await stranger.get<Page<Audit>>('/audits')).body.total).toBe(0);
    const refused = await reader.post<ErrorBody>('/audits', { name: 'x', asset_ids: [] });
    expect(refused.status).toBe(403);
  });

  it('serves the console: members see audits, managers start, scan a code, complete', async () => {
    const shelf = await place('Audit shelf');
    const book = await asset('Audit ledger', shelf);
    const manager = await consoleMember(tenant, 'manager', 'manager@audits.example');
    const member = await consoleMember(tenant, 'member', 'member@audits.example');
    const refused = await member.post<ErrorBody>('/console/api/audits', {
      name: 'Shelf',
      location_id: shelf,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('start, scan into, complete or cancel audits');
    const made = await manager.post<Audit>('/console/api/audits', {
      name: 'Shelf',
      location_id: shelf,
    });
    expect([made.status, made.body.status]).toEqual([201, 'starting']);
    await opened(made.body.id);
    // A code as a barcode scanner types it: the tag in another case.
    const scanned = await manager.post<AuditScan>(`/console/api/audits/${made.body.id}/scans`, {
      code: book.asset_tag.toLowerCase(),
    });
    expect([scanned.status, scanned.body.outcome]).toEqual([201, 'found']);
    const again = await manager.post<AuditScan>(`/console/api/audits/${made.body.id}/scans`, {
      code: book.asset_tag,
    });
    expect([again.status, again.body.repeated]).toEqual([200, true]);
    const seen = await member.get<Audit>(`/console/api/audits/${made.body.id}`);
    expect(seen.body.counts).toMatchObject({ expected: 1, found: 1, missing: 0 });
    const items = await member.get<Page<AuditItem>>(
      `/console/api/audits/${made.body.id}/items?state=found`,
    );
    expect(items.body.data.map((item) => item.asset.id)).toEqual([book.id]);
    const done = await manager.post<Audit>(`/console/api/audits/${made.body.id}/complete`, {
      move_found: true,
    });
    expect([done.status, done.body.status]).toEqual([202, 'completing']);
  });
});
