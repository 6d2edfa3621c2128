import {
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type AssetDetail,
  type AssetSummary,
  type BulkAssetReply,
  type CreatedWebhookView,
  type ErrorBody,
  type EventEnvelope,
  type PersonDetail,
} from '@custodian/contracts';
import { eventDataErrors, eventually, WebhookReceiver } from '@custodian/testing';
import { verify } from '@custodian/webhook-signature';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

describe('custody: checking assets out and in (e2e)', () => {
  // The test clock: the register's due-date engine runs at a time the test names.
  const stack = new TestStack({ env: { OVERDUE_TEST_CLOCK: 'on' } });
  // Receives the bulk changes' webhooks, signed, as a subscriber would.
  const receiver = new WebhookReceiver();
  let tenant: Tenant;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);
  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  /** The custody events of an asset, in order; each one's data must match its schema. */
  async function custodyEvents(assetId: string): Promise<string[]> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ event: string; data: unknown }>(
        `SELECT event, data FROM register.outbox
         WHERE event LIKE 'assignment.%' AND data->'asset'->>'id' = $1 ORDER BY id`,
        [assetId],
      );
      for (const row of rows) {
        const key =
          row.event === 'assignment.checked_in'
            ? 'assignment.checked_in'
            : 'assignment.checked_out';
        expect({ event: row.event, errors: eventDataErrors(key, row.data) }).toEqual({
          event: row.event,
          errors: [],
        });
      }
      return rows.map((row) => row.event);
    } finally {
      await client.end();
    }
  }

  async function person(name: string, on: Tenant = tenant): Promise<PersonDetail> {
    return (await on.post<PersonDetail>('/people', { full_name: name })).body;
  }

  it('checks out on create and shows assigned_to, custody and holdings consistently', async () => {
    const holder = await person('Margaret Hamilton');
    const asset = await tenant.post<AssetDetail>('/assets', {
      name: 'ThinkPad',
      assigned_to_id: holder.id,
    });
    expect(asset.status).toBe(201);
    expect(asset.body.assigned_to).toEqual({ id: holder.id, name: 'Margaret Hamilton' });
    expect(asset.body.custody).toMatchObject({ person: { id: holder.id } });
    expect(asset.body.custody!.since).toMatch(/Z$/);
    const listed = await tenant.get<AssetSummary[]>('/assets');
    expect(listed.body.find((a) => a.id === asset.body.id)?.assigned_to).toEqual({
      id: holder.id,
      name: 'Margaret Hamilton',
    });
    const fetched = await tenant.get<PersonDetail>(`/people/${holder.id}`);
    expect(fetched.body.holdings.map((h) => h.id)).toEqual([asset.body.id]);
    expect(await custodyEvents(asset.body.id)).toEqual(['assignment.checked_out']);
  });

  it('moves custody on PATCH and checks in with null, one event per change', async () => {
    const first = await person('First');
    const second = await person('Second');
    const asset = (await tenant.post<AssetDetail>('/assets', { name: 'Monitor' })).body;
    await tenant.patch(`/assets/${asset.id}`, { assigned_to_id: first.id });
    const moved = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {
      assigned_to_id: second.id,
    });
    expect(moved.body.assigned_to?.id).toBe(second.id);
    const returned = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {
      assigned_to_id: null,
    });
    expect(returned.body).toMatchObject({ assigned_to: null, custody: null });
    expect(await custodyEvents(asset.id)).toEqual([
      'assignment.checked_out',
      'assignment.checked_in',
      'assignment.checked_out',
      'assignment.checked_in',
    ]);
    expect((await tenant.get<PersonDetail>(`/people/${second.id}`)).body.holdings).toEqual([]);
  });

  it('takes a due date with a check-out, shows it in custody, and refuses one that cannot be', async () => {
    const holder = await person('Grace Hopper');
    const due = '2099-06-01T17:00:00+02:00';
    const out = await tenant.post<AssetDetail>('/assets', {
      name: 'Oscilloscope',
      assigned_to_id: holder.id,
      due_at: due,
    });
    expect(out.status).toBe(201);
    expect(out.body.custody).toEqual({
      person: { id: holder.id, name: 'Grace Hopper' },
      since: out.body.created_at,
      due_at: '2099-06-01T15:00:00.000Z',
    });
    const refused: Array<[string, Record<string, unknown>, RegExp]> = [
      ['/assets', { name: 'No holder', due_at: due }, /^due_at needs a check-out/],
      [
        '/assets',
        { name: 'Past', assigned_to_id: holder.id, due_at: '2001-01-01T00:00:00Z' },
        /^due_at 2001-01-01T00:00:00Z is not in the future$/,
      ],
      [
        '/assets',
        { name: 'Local', assigned_to_id: holder.id, due_at: '2099-06-01 17:00' },
        /^due_at must be a date and time with its offset/,
      ],
    ];
    for (const [path, body, message] of refused) {
      const response = await tenant.post<ErrorBody>(path, body);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
    }
    // Checked in: the due date goes with the check-out.
    const back = await tenant.patch<AssetDetail>(`/assets/${out.body.id}`, {
      assigned_to_id: null,
    });
    expect(back.body.custody).toBeNull();
    const late = await tenant.patch<ErrorBody>(`/assets/${out.body.id}`, { due_at: due });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/^due_at needs a check-out/);
  });

  it('refuses a person of another workspace or an inactive person with 400', async () => {
    const other = await stack.tenant('pro', 'write');
    const theirs = await person('Theirs', other);
    const asset = (await tenant.post<AssetDetail>('/assets', { name: 'Phone' })).body;
    const foreign = await tenant.patch<ErrorBody>(`/assets/${asset.id}`, {
      assigned_to_id: theirs.id,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(
      `assigned_to_id ${theirs.id} is not a person of this workspace`,
    );
    const leaver = await person('Leaver');
    await tenant.patch(`/people/${leaver.id}`, { status: 'inactive' });
    const inactive = await tenant.post<ErrorBody>('/assets', {
      name: 'Laptop',
      assigned_to_id: leaver.id,
    });
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toMatch(/inactive/);
    expect((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body.assigned_to).toBeNull();
  });

  it('stays consistent under concurrent PATCHes of one asset', async () => {
    const people = await Promise.all(['P1', 'P2', 'P3', 'P4', 'P5'].map((name) => person(name)));
    const asset = (await tenant.post<AssetDetail>('/assets', { name: 'Shared drill' })).body;
    const results = await Promise.all(
      [...people, ...people].map((p) =>
        tenant.patch(`/assets/${asset.id}`, { assigned_to_id: p.id }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body;
    const holders = await Promise.all(
      people.map(async (p) => (await tenant.get<PersonDetail>(`/people/${p.id}`)).body.holdings),
    );
    // Exactly one person holds it, the one the asset names.
    const holding = people.filter((_, index) => holders[index]!.some((h) => h.id === asset.id));
    expect(holding.map((p) => p.id)).toEqual([final.assigned_to!.id]);
    // Every change of holder was recorded as a check-in of the old and a check-out of the new.
    const events = await custodyEvents(asset.id);
    expect(events[0]).toBe('assignment.checked_out');
    for (let i = 1; i < events.length; i += 2) {
      expect([events[i], events[i + 1]]).toEqual([
        'assignment.checked_in',
        'assignment.checked_out',
      ]);
    }
  });

  it("fires assignment.overdue once, for the date it was moved to, when the engine's clock passes it", async () => {
    const holder = await person('Katherine Johnson');
    const out = await tenant.post<AssetDetail>('/assets', {
      name: 'Sextant',
      assigned_to_id: holder.id,
      due_at: '2098-03-01T12:00:00Z',
    });
    expect(out.status).toBe(201);
    const moved = await tenant.patch<AssetDetail>(`/assets/${out.body.id}`, {
      due_at: '2098-06-01T12:00:00Z',
    });
    expect(moved.status).toBe(200);
    const clock = (at: string) =>
      stack.registerAdminCall<{ fired: number }>(RegisterAdminPatterns.overdueSweep, { at });

    // Past the first date only: the move re-armed the notice, so nothing fires.
    expect(await clock('2098-04-01T00:00:00Z')).toEqual({ fired: 0 });
    expect(await clock('2098-06-02T00:00:00Z')).toEqual({ fired: 1 });
    expect(await clock('2098-07-01T00:00:00Z')).toEqual({ fired: 0 });

    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM register.outbox
          WHERE event = 'assignment.overdue' AND data->'asset'->>'id' = $1`,
        [out.body.id],
      );
      expect(rows).toHaveLength(1);
      expect(eventDataErrors('assignment.overdue', rows[0]!.data)).toEqual([]);
      expect(rows[0]!.data).toMatchObject({
        person: { id: holder.id, name: 'Katherine Johnson' },
        since: out.body.created_at,
        due_at: '2098-06-01T12:00:00.000Z',
      });
    } finally {
      await client.end();
    }
  });

  describe('POST /assets/bulk', () => {
    const ids = (count: number, name: string, on: Tenant = tenant) =>
      Promise.all(
        Array.from({ length: count }, async (_, n) => {
          const created = await on.post<AssetDetail>('/assets', { name: `${name} ${n}` });
          expect(created.status).toBe(201);
          return created.body.id;
        }),
      );

    it('refuses a body wrong as a whole with 400 naming the field, and a read key with 403', async () => {
      const [id] = await ids(1, 'Bulk probe');
      const refused: Array<[Record<string, unknown>, RegExp]> = [
        [
          { ids: Array.from({ length: 1001 }, (_, n) => `ast_${n}`), action: 'check_in' },
          /^ids must name at most 1000 assets$/,
        ],
        [{ ids: [id, id], action: 'check_in' }, /^ids must name each asset once$/],
        [{ ids: [id], action: 'teleport' }, /^action must be one of update, check_out/],
        [{ ids: [id], action: 'update' }, /give exactly one of them with action update$/],
        [{ ids: [id], action: 'check_out' }, /^person_id is required with action check_out$/],
        [
          { ids: [id], action: 'check_out', person_id: 'per_nobody' },
          /^person_id per_nobody is not a person of this workspace$/,
        ],
        [{ ids: [id], action: 'check_in', status: 'lost' }, /^status: not taken with action/],
      ];
      for (const [body, message] of refused) {
        const response = await tenant.post<ErrorBody>('/assets/bulk', body);
        expect({ body, status: response.status, message: response.body.message }).toEqual({
          body,
          status: 400,
          message: expect.stringMatching(message) as string,
        });
      }
      const reader = await stack.tenant('pro', 'read');
      const forbidden = await reader.post<ErrorBody>('/assets/bulk', {
        ids: [id],
        action: 'check_in',
      });
      expect(forbidden.status).toBe(403);
      const asset = await tenant.get<AssetDetail>(`/assets/${id}`);
      expect(asset.body.updated_at).toBe(asset.body.created_at);
    });

    it('checks out a mixed batch: a result per id, and one signed webhook per changed asset', async () => {
      const endpoint = await stack.workerAdminCall<CreatedWebhookView>(
        WorkerAdminPatterns.webhookCreate,
        {
          workspace: tenant.workspace.id,
          url: receiver.url('/bulk'),
          events: 'assignment.checked_out, assignment.checked_in, asset.updated',
        },
      );
      expect(endpoint.id).toMatch(/^whe_/);
      const free = await ids(120, 'Bulk laptop');
      const holder = await person('Bulk Holder');
      const other = await person('Someone Else');
      const [held] = await ids(1, 'Held');
      await tenant.patch(`/assets/${held}`, { assigned_to_id: other.id });
      const foreign = (await ids(1, 'Theirs', await stack.tenant('pro', 'write')))[0]!;
      const sent = [...free, held!, foreign, 'ast_nosuchasset'];
      const key = `bulk-${Date.now()}`;
      const response = await tenant.request<BulkAssetReply>('/assets/bulk', {
        method: 'POST',
        body: { ids: sent, action: 'check_out', person_id: holder.id },
        headers: { 'idempotency-key': key },
      });
      expect(response.status).toBe(200);
      expect(response.body.counts).toEqual({
        updated: 120,
        unchanged: 0,
        not_found: 2,
        refused: 1,
      });
      expect(response.body.results.map((result) => result.id)).toEqual(sent);
      expect(response.body.results.slice(120)).toEqual([
        {
          id: held,
          outcome: 'refused',
          status: 409,
          message: `Asset ${held} is checked out to Someone Else; check it in before checking it out to someone else`,
        },
        { id: foreign, outcome: 'not_found', status: 404, message: `Asset ${foreign} not found` },
        {
          id: 'ast_nosuchasset',
          outcome: 'not_found',
          status: 404,
          message: 'Asset ast_nosuchasset not found',
        },
      ]);
      const holdings = await tenant.get<AssetSummary[]>(`/assets?assigned_to_id=${holder.id}`);
      expect(holdings.body).toHaveLength(120);

      // The same key again: the first answer, nothing applied twice.
      const replay = await tenant.request<BulkAssetReply>('/assets/bulk', {
        method: 'POST',
        body: { ids: sent, action: 'check_out', person_id: holder.id },
        headers: { 'idempotency-key': key },
      });
      expect(replay.body).toEqual(response.body);

      // 120 asset.updated and 120 assignment.checked_out, each received once, signed.
      const ours = new Set(free);
      const assetOf = (envelope: EventEnvelope) => {
        const data = envelope.data as { id?: string; asset?: { id: string } };
        return data.asset?.id ?? data.id ?? '';
      };
      const got = await eventually(
        () => {
          const received = receiver
            .on('/bulk')
            .map((delivery) => ({
              delivery,
              envelope: JSON.parse(delivery.rawBody) as EventEnvelope,
            }))
            .filter(({ envelope }) => ours.has(assetOf(envelope)));
          expect(received.length).toBeGreaterThanOrEqual(240);
          return Promise.resolve(received);
        },
        { timeoutMs: 20_000, intervalMs: 100 },
      );
      const byEvent = (event: string) =>
        got
          .filter(({ envelope }) => envelope.event === event)
          .map(({ envelope }) => assetOf(envelope))
          .sort();
      expect(byEvent('assignment.checked_out')).toEqual([...free].sort());
      expect(byEvent('asset.updated')).toEqual([...free].sort());
      for (const { delivery } of got) {
        const headers = delivery.headers;
        expect(
          verify(
            endpoint.secret,
            delivery.rawBody,
            headers['x-custodian-timestamp'] as string,
            headers['x-custodian-signature'] as string,
          ),
        ).toEqual({ ok: true });
      }

      // Checked in again, in one call: 120 checked_in.
      const back = await tenant.post<BulkAssetReply>('/assets/bulk', {
        ids: free,
        action: 'check_in',
      });
      expect(back.body.counts).toEqual({ updated: 120, unchanged: 0, not_found: 0, refused: 0 });
      expect(await custodyEvents(free[0]!)).toEqual([
        'assignment.checked_out',
        'assignment.checked_in',
      ]);
    }, 60_000);
  });
});
