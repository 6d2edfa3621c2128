import {
  AssetRequest,
  Booking,
  type License,
  type LicenseSeat,
  RegisterAdminPatterns,
  AssetSummary,
  DomainError,
  EMITTED_EVENTS,
  Maintenance,
  Audit,
  Member,
  Person,
  Reminder,
  Asset,
  GatewayAdminPatterns,
  PERSON_HOLDINGS_MAX,
  WorkerAdminPatterns,
  type AssetDetail,
  type CreatedWebhookView,
  type DeliveryLogEntry,
  type EventEnvelope,
  type MemberView,
  type Page,
  type PersonDetail,
  type PublishedEvent,
  type WebhookEndpointView,
  type WebhookTestView,
} from '@custodian/contracts';
import { openConnection } from '@custodian/messaging';
import { envelopeErrors, eventually, schemaErrors, WebhookReceiver } from '@custodian/testing';
import { verify } from '@custodian/webhook-signature';
import { Client } from 'pg';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

/** `expect.stringMatching`, typed as the string it stands for. */
const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;

describe('webhook delivery: endpoints, fan-out, signed sending, retries, log (e2e)', () => {
  // Spec timings for retries (300 ms, 900 ms); a short attempt timeout keeps the suite quick.
  const stack = new TestStack({
    env: {
      DELIVERY_TIMEOUT_MS: '500',
      OVERDUE_TEST_CLOCK: 'on',
      DELIVERY_LEASE_MS: '5000',
      DELIVERY_INTERVAL_MS: '50',
      DUE_DATES_SWEEP_MS: '100',
    },
  });
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

  function createEndpoint(path: string, events: string, workspace = tenant.workspace.id) {
    return stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace,
      url: receiver.url(path),
      events,
    });
  }

  function deliveries(endpoint: string): Promise<DeliveryLogEntry[]> {
    return stack.workerAdminCall(WorkerAdminPatterns.deliveries, { endpoint });
  }

  /** Waits until the endpoint's newest delivery is settled (delivered or failed). */
  async function settled(endpoint: string, count = 1): Promise<DeliveryLogEntry[]> {
    return eventually(
      async () => {
        const log = await deliveries(endpoint);
        if (log.length < count || log.some((entry) => entry.status === 'pending')) {
          throw new Error(`not settled: ${JSON.stringify(log)}`);
        }
        return log;
      },
      { timeoutMs: 8_000, intervalMs: 50 },
    );
  }

  /** The same event message twice, as a broker redelivery would bring it. */
  async function publishTwice(event: PublishedEvent): Promise<void> {
    const connection = await openConnection(stack.env.RABBITMQ_URL!, 'custodian-test-dup');
    try {
      const channel = await connection.createConfirmChannel();
      const body = Buffer.from(JSON.stringify(event));
      for (let i = 0; i < 2; i++) {
        channel.publish(stack.env.EVENTS_EXCHANGE!, event.event, body, {
          persistent: true,
          messageId: event.id,
          contentType: 'application/json',
        });
      }
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
  }

  async function createAsset(name: string): Promise<AssetDetail> {
    const response = await tenant.post<AssetDetail>('/assets', { name });
    expect(response.status).toBe(201);
    return response.body;
  }

  it('creates an endpoint with a whsec_ secret shown once, and lists it without the secret', async () => {
    const created = await createEndpoint('/listed', 'asset.created, asset.updated');
    expect(created).toEqual({
      id: matching(/^whe_/),
      url: receiver.url('/listed'),
      events: ['asset.created', 'asset.updated'],
      secret: matching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const list = await stack.workerAdminCall<WebhookEndpointView[]>(
      WorkerAdminPatterns.webhookList,
      { workspace: tenant.workspace.id },
    );
    const listed = list.find((endpoint) => endpoint.id === created.id)!;
    expect(listed).toMatchObject({ url: created.url, events: created.events, enabled: true });
    expect(JSON.stringify(list)).not.toContain('whsec_');

    // Stored encrypted: the table does not give the secret away.
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ secret: string }>(
        `SELECT secret FROM delivery.endpoints WHERE id = $1`,
        [created.id],
      );
      expect(rows[0]?.secret).toMatch(/^v1:dev:/);
      expect(rows[0]?.secret).not.toContain(created.secret.slice('whsec_'.length));
    } finally {
      await db.end();
    }
  });

  it('refuses an unknown event key with a 400 naming it', async () => {
    const error = await createEndpoint('/x', 'asset.created,asset.exploded').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    expect((error as DomainError).message).toContain('asset.exploded');
  });

  it('refuses non-http(s) URLs and workspaces whose plan has no webhooks (403 naming the plan)', async () => {
    const scheme = await stack
      .workerAdminCall(WorkerAdminPatterns.webhookCreate, {
        workspace: tenant.workspace.id,
        url: 'ftp://127.0.0.1/x',
        events: '*',
      })
      .catch((e: unknown) => e);
    expect((scheme as DomainError).code).toBe('invalid_input');
    const free = await stack.createWorkspace('free');
    const refused = await createEndpoint('/free', '*', free.id).catch((e: unknown) => e);
    expect((refused as DomainError).code).toBe('forbidden');
    expect((refused as DomainError).message).toContain('free');
  });

  it('delivers asset.created signed, and the signature verifies with the endpoint secret', async () => {
    const endpoint = await createEndpoint('/signed', 'asset.created');
    const asset = await createAsset('Signed laptop');
    const [request] = await eventually(() => {
      const got = receiver.on('/signed');
      if (got.length === 0) throw new Error('no delivery yet');
      return Promise.resolve(got);
    });
    const headers = request!.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-custodian-event']).toBe('asset.created');
    expect(headers['x-custodian-delivery']).toMatch(/^dlv_/);
    const check = verify(
      endpoint.secret,
      request!.rawBody,
      headers['x-custodian-timestamp'] as string,
      headers['x-custodian-signature'] as string,
    );
    expect(check).toEqual({ ok: true });
    expect(
      verify(
        'whsec_wrong',
        request!.rawBody,
        headers['x-custodian-timestamp'] as string,
        headers['x-custodian-signature'] as string,
      ).ok,
    ).toBe(false);
    const envelope = JSON.parse(request!.rawBody) as EventEnvelope<AssetDetail>;
    expect(Object.keys(envelope).sort()).toEqual(['created_at', 'data', 'event', 'id']);
    expect(envelope.id).toMatch(/^evt_/);
    expect(envelope.event).toBe('asset.created');
    expect(envelope.data.id).toBe(asset.id);
    expect(envelopeErrors(envelope)).toEqual([]);
    const [entry] = await settled(endpoint.id);
    expect(entry).toMatchObject({
      delivery_id: headers['x-custodian-delivery'],
      event_id: envelope.id,
      event: 'asset.created',
      status: 'delivered',
      attempts: [{ attempt: 1, status_code: 200, error: null, response_body: 'ok' }],
    });
  });

  it('retries 500, 500 then delivers on 200: three attempts, same delivery id, 300/900 ms apart', async () => {
    receiver.script('/flaky', { status: 500, body: 'boom' }, { status: 500 }, { status: 200 });
    const endpoint = await createEndpoint('/flaky', 'asset.created');
    await createAsset('Flaky');
    const [entry] = await settled(endpoint.id);
    expect(entry!.status).toBe('delivered');
    expect(entry!.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(entry!.attempts[0]!.response_body).toBe('boom');
    const requests = receiver.on('/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-custodian-delivery']))).toEqual(
      new Set([entry!.delivery_id]),
    );
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(280);
    expect(requests[2]!.receivedAt - requests[1]!.receivedAt).toBeGreaterThanOrEqual(880);
  });

  it('fails at once on a 400, after one attempt', async () => {
    receiver.script('/rejects', { status: 400, body: 'bad payload' });
    const endpoint = await createEndpoint('/rejects', 'asset.created');
    await createAsset('Rejected');
    const [entry] = await settled(endpoint.id);
    expect(entry).toMatchObject({
      status: 'failed',
      attempts: [{ attempt: 1, status_code: 400, error: null, response_body: 'bad payload' }],
    });
    expect(receiver.on('/rejects')).toHaveLength(1);
  });

  it('gives up after 3 timeouts, and records connection refused', async () => {
    receiver.script('/hangs', 'hang');
    const hangs = await createEndpoint('/hangs', 'asset.created');
    const refused = await stack.workerAdminCall<CreatedWebhookView>(
      WorkerAdminPatterns.webhookCreate,
      { workspace: tenant.workspace.id, url: 'http://127.0.0.1:1/closed', events: 'asset.created' },
    );
    await createAsset('Unreachable');
    const [timedOut] = await settled(hangs.id);
    expect(timedOut!.status).toBe('failed');
    expect(timedOut!.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'timeout'],
      [null, 'timeout'],
      [null, 'timeout'],
    ]);
    const [closed] = await settled(refused.id);
    expect(closed!.status).toBe('failed');
    expect(closed!.attempts.map((a) => a.error)).toEqual([
      'connection_refused',
      'connection_refused',
      'connection_refused',
    ]);
  });

  it('creates one delivery when the same event message arrives twice', async () => {
    const endpoint = await createEndpoint('/dedupe', 'asset.updated');
    const event: PublishedEvent = {
      id: `evt_dup_${stack.suffix}`,
      event: 'asset.updated',
      created_at: new Date().toISOString(),
      data: { id: 'ast_dup' },
      workspace_id: tenant.workspace.id,
    };
    await publishTwice(event);
    await settled(endpoint.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = await deliveries(endpoint.id);
    expect(log.map((entry) => [entry.event_id, entry.status])).toEqual([[event.id, 'delivered']]);
    expect(receiver.on('/dedupe')).toHaveLength(1);
  });

  it('stores no deliveries for a workspace whose plan lost webhooks', async () => {
    const workspace = await stack.createWorkspace('pro', 'Downgraded');
    const endpoint = await createEndpoint('/downgraded', '*', workspace.id);
    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: workspace.id,
      plan: 'free',
    });
    await publishTwice({
      id: `evt_down_${stack.suffix}`,
      event: 'asset.updated',
      created_at: new Date().toISOString(),
      data: { id: 'ast_down' },
      workspace_id: workspace.id,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await deliveries(endpoint.id)).toEqual([]);
    expect(receiver.on('/downgraded')).toHaveLength(0);
  });

  it('webhook test delivers a ping naming the endpoint, whatever the subscription', async () => {
    const endpoint = await createEndpoint('/ping', 'employee.offboarded');
    const ping = await stack.workerAdminCall<WebhookTestView>(WorkerAdminPatterns.webhookTest, {
      id: endpoint.id,
    });
    expect(ping).toEqual({
      delivery_id: matching(/^dlv_/),
      event_id: matching(/^evt_/),
    });
    const [entry] = await settled(endpoint.id);
    expect(entry).toMatchObject({
      delivery_id: ping.delivery_id,
      event: 'ping',
      status: 'delivered',
    });
    const [request] = receiver.on('/ping');
    expect(request!.headers['x-custodian-event']).toBe('ping');
    expect(request!.headers['x-custodian-delivery']).toBe(ping.delivery_id);
    const envelope = JSON.parse(request!.rawBody) as EventEnvelope;
    expect(envelope).toMatchObject({
      id: ping.event_id,
      event: 'ping',
      data: { endpoint: { id: endpoint.id, url: endpoint.url } },
    });
    expect(envelopeErrors(envelope)).toEqual([]);
    expect(
      verify(
        endpoint.secret,
        request!.rawBody,
        request!.headers['x-custodian-timestamp'] as string,
        request!.headers['x-custodian-signature'] as string,
      ).ok,
    ).toBe(true);
  });

  it('carries at most 50 holdings in employee.offboarded, with holdings_count, as the fetch does', async () => {
    const own = await stack.tenant('pro', 'write');
    await createEndpoint('/holdings', 'employee.offboarded', own.workspace.id);
    const person = (await own.post<PersonDetail>('/people', { full_name: 'Holds Plenty' })).body;
    const held: string[] = [];
    for (let i = 0; i < PERSON_HOLDINGS_MAX + 2; i++) {
      const asset = await own.post<AssetDetail>('/assets', {
        name: `Thing ${i}`,
        assigned_to_id: person.id,
      });
      expect(asset.status).toBe(201);
      held.push(asset.body.id);
    }
    // The two oldest check-outs are left out; the 50 most recent stay, oldest first.
    const recent = held.slice(2);
    const fetched = await own.get<PersonDetail>(`/people/${person.id}`);
    expect(fetched.body.holdings_count).toBe(PERSON_HOLDINGS_MAX + 2);
    expect(fetched.body.holdings.map((holding) => holding.id)).toEqual(recent);

    const offboarded = await own.patch<PersonDetail>(`/people/${person.id}`, {
      status: 'inactive',
    });
    expect(offboarded.status).toBe(200);
    expect(offboarded.body).toMatchObject({ holdings_count: 52, holdings: fetched.body.holdings });
    const [request] = await eventually(() => {
      const got = receiver.on('/holdings');
      if (got.length === 0) throw new Error('no delivery yet');
      return Promise.resolve(got);
    });
    const envelope = JSON.parse(request!.rawBody) as EventEnvelope<PersonDetail>;
    expect(envelope.event).toBe('employee.offboarded');
    expect(envelopeErrors(envelope)).toEqual([]);
    expect(envelope.data).toEqual(offboarded.body);

    // The whole list, as the event's description says.
    const all = await own.get<Page<AssetSummary>>(
      `/assets?assigned_to_id=${person.id}&page=1&pageSize=200`,
    );
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(PERSON_HOLDINGS_MAX + 2);
    expect(all.body.data.map((asset) => asset.id)).toEqual(held);
  }, 30_000);

  it('delivers every kind the service emits in the envelope its schema describes', async () => {
    const own = await stack.tenant('pro', 'write');
    const workspace = own.workspace.id;
    const endpoint = await createEndpoint('/contract', '*', workspace);
    // One person and one asset: the first create of each reaches its limit (plan.changed too).
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace,
      people: '1',
      assets: '1',
    });
    const person = await own.post<PersonDetail>('/people', {
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      employee_number: 'E-1815',
      department: 'Engineering',
      location: 'London',
    });
    expect(person.status).toBe(201);
    expect(schemaErrors(Person, person.body)).toEqual([]);
    const asset = await own.post<AssetDetail>('/assets', {
      name: 'Contract laptop',
      sku: 'SKU-1',
      category: 'Laptops',
      location: 'London',
      assigned_to_id: person.body.id,
      due_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(asset.status).toBe(201);
    expect(schemaErrors(Asset, asset.body)).toEqual([]);
    // Its due date passes (moved in the data, not waited for): the due-date engine fires
    // assignment.overdue before the check-in below clears the due date. The asset's date and
    // its notice's move together, to the millisecond, as the API would have written them.
    await stack.query(
      `WITH moved AS (
         UPDATE register.assets
            SET custody_due_at = date_trunc('milliseconds', now()) - interval '1 second'
          WHERE id = $1 RETURNING id, custody_due_at)
       UPDATE register.due_notices n
          SET due_at = moved.custody_due_at, next_attempt_at = moved.custody_due_at
         FROM moved
        WHERE n.subject_id = moved.id AND n.kind = 'assignment.overdue'
          AND n.fired_at IS NULL AND n.cancelled_at IS NULL`,
      [asset.body.id],
    );
    await eventually(async () => {
      const rows = await stack.query(
        `SELECT 1 FROM register.outbox WHERE event = 'assignment.overdue' AND workspace_id = $1`,
        [workspace],
      );
      if (rows.length === 0) throw new Error('not overdue yet');
    });
    const checkedIn = await own.patch<AssetDetail>(`/assets/${asset.body.id}`, {
      assigned_to_id: null,
      serial_number: 'SN-1',
    });
    expect(checkedIn.status).toBe(200);
    expect(schemaErrors(Asset, checkedIn.body)).toEqual([]);
    // What only a person does, in the console: condition, scan, delete and restore.
    const owner = await consoleOwner(stack, workspace, 'contract-owner@example.com');
    const consoleAsset = `/console/api/assets/${asset.body.id}`;
    expect((await owner.patch(consoleAsset, { condition: 'poor' })).status).toBe(200);
    const scan = await owner.post('/console/api/assets/scan', { code: asset.body.asset_tag });
    expect(scan.status).toBe(200);
    expect((await owner.delete(consoleAsset)).status).toBe(200);
    // Room for it again, so that the restore does not reach the limit a second time.
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, { workspace, assets: '2' });
    expect((await owner.post(`${consoleAsset}/restore`)).status).toBe(200);
    // A booking's life on the same asset: booked and cancelled; booked, checked out early,
    // overdue when the engine's clock passes its end, checked in; booked and never picked up.
    const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
    const book = async (from: number, to: number) => {
      const made = await own.post<Booking>('/bookings', {
        person_id: person.body.id,
        asset_ids: [asset.body.id],
        starts_at: hours(from),
        ends_at: hours(to),
      });
      expect(made.status).toBe(201);
      expect(schemaErrors(Booking, made.body)).toEqual([]);
      return made.body;
    };
    const dropped = await book(1, 2);
    expect((await own.post(`/bookings/${dropped.id}/cancel`, {})).status).toBe(200);
    const used = await book(0.5, 1);
    expect((await own.post(`/bookings/${used.id}/check-out`, {})).status).toBe(200);
    const clock = (at: string) =>
      stack.registerAdminCall<{ fired: number }>(RegisterAdminPatterns.overdueSweep, { at });
    await clock(hours(1.5));
    expect((await own.post(`/bookings/${used.id}/check-in`, {})).status).toBe(200);
    const missed = await book(2, 3);
    await clock(hours(3.5));
    expect((await own.get<Booking>(`/bookings/${missed.id}`)).body.status).toBe('no_show');
    // Two requests for it: one approved as a booking (cancelled again), one rejected.
    const ask = async () => {
      const made = await own.post<AssetRequest>('/requests', {
        person_id: person.body.id,
        asset_id: asset.body.id,
        starts_at: hours(5),
        ends_at: hours(6),
      });
      expect(made.status).toBe(201);
      expect(schemaErrors(AssetRequest, made.body)).toEqual([]);
      return made.body;
    };
    const granted = await own.post<AssetRequest>(`/requests/${(await ask()).id}/approve`, {});
    expect(granted.status).toBe(200);
    expect(schemaErrors(AssetRequest, granted.body)).toEqual([]);
    const grantedBooking = granted.body.decision?.booking_id ?? '';
    expect((await own.post(`/bookings/${grantedBooking}/cancel`, {})).status).toBe(200);
    const refused = await own.post(`/requests/${(await ask()).id}/reject`, { note: 'Not now' });
    expect(refused.status).toBe(200);
    // Under approval, a member books in the console: requested (booking.requested).
    const approval = await own.patch('/settings/bookings', { approval_required: true });
    expect(approval.status).toBe(200);
    const booker = await consoleMember(own, 'member', 'contract-booker@example.com');
    const requested = await booker.post<Booking>('/console/api/bookings', {
      person_id: person.body.id,
      asset_ids: [asset.body.id],
      starts_at: hours(4),
      ends_at: hours(5),
    });
    expect([requested.status, requested.body.status]).toEqual([201, 'requested']);
    expect(schemaErrors(Booking, requested.body)).toEqual([]);
    // Its warranty: ending inside the 7-day threshold (expiring, told at the next sweep), then
    // moved to a day already past (expired).
    const day = (days: number) =>
      new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const warranty = async (on: string) => {
      const changed = await own.patch<AssetDetail>(`/assets/${asset.body.id}`, {
        warranty_expires_on: on,
      });
      expect([changed.status, changed.body.warranty_expires_on]).toEqual([200, on]);
      await clock(new Date(Date.now() + 1_000).toISOString());
    };
    await warranty(day(2));
    await warranty(day(-1));
    // A reminder about it, a minute ahead, and the engine's clock past it: reminder.due.
    const reminder = await own.post<Reminder>('/reminders', {
      title: 'Contract reminder',
      due_at: new Date(Date.now() + 60_000).toISOString(),
      asset_id: asset.body.id,
    });
    expect(reminder.status).toBe(201);
    expect(schemaErrors(Reminder, reminder.body)).toEqual([]);
    await clock(new Date(Date.now() + 120_000).toISOString());
    // A licence's life: created, changed, a seat assigned and released, deleted.
    const licence = await own.post<License>('/licenses', { name: 'Contract licence', seats: 1 });
    expect(licence.status).toBe(201);
    expect((await own.patch(`/licenses/${licence.body.id}`, { vendor: 'Acme' })).status).toBe(200);
    const seat = await own.post<LicenseSeat>(`/licenses/${licence.body.id}/seats`, {
      person_id: person.body.id,
    });
    expect(seat.status).toBe(201);
    expect((await own.delete(`/licenses/${licence.body.id}/seats/${seat.body.id}`)).status).toBe(
      200,
    );
    expect((await own.delete(`/licenses/${licence.body.id}`)).status).toBe(200);
    // Two dates: one inside the 7-day threshold (expiring, told at once), one past (expired).
    for (const [name, days] of [
      ['Ending licence', 2],
      ['Ended licence', -1],
    ] as const) {
      const dated = await own.post<License>('/licenses', { name, expires_on: day(days) });
      expect(dated.status).toBe(201);
    }
    // A repair of the asset, logged with its status and resolved: maintenance.created and
    // maintenance.resolved (each beside an asset.updated).
    const repair = await own.post<Maintenance>(`/assets/${asset.body.id}/maintenance`, {
      title: 'Contract repair',
      type: 'repair',
      set_asset_status: true,
    });
    expect(repair.status).toBe(201);
    expect(schemaErrors(Maintenance, repair.body)).toEqual([]);
    const repaired = await own.post<Maintenance>(`/maintenance/${repair.body.id}/resolve`, {
      notes: 'Done',
    });
    expect([repaired.status, repaired.body.status]).toEqual([200, 'resolved']);
    // An audit of the asset, never scanned: audit.started, then at completion
    // audit.item_missing and audit.completed (both written by the register's background job).
    const audit = await own.post<Audit>('/audits', {
      name: 'Contract audit',
      asset_ids: [asset.body.id],
    });
    expect([audit.status, audit.body.status]).toEqual([201, 'starting']);
    expect(schemaErrors(Audit, audit.body)).toEqual([]);
    await eventually(async () => {
      const fetched = await own.get<Audit>(`/audits/${audit.body.id}`);
      if (fetched.body.status !== 'open') throw new Error(fetched.body.status);
    });
    const completing = await own.post<Audit>(`/audits/${audit.body.id}/complete`, {});
    expect([completing.status, completing.body.status]).toEqual([202, 'completing']);
    const offboarded = await own.patch<PersonDetail>(`/people/${person.body.id}`, {
      status: 'inactive',
    });
    expect(offboarded.status).toBe(200);
    expect(schemaErrors(Person, offboarded.body)).toEqual([]);
    const member = await own.post<MemberView>('/members', { email: 'contract@example.com' });
    expect(member.status).toBe(201);
    expect(schemaErrors(Member, member.body)).toEqual([]);
    // The invitation is cancelled in the console: member.removed.
    expect((await owner.delete(`/console/api/members/${member.body.id}`)).status).toBe(200);
    // A monthly quota of 1: the first request of a fresh key uses it up (gateway variant).
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, { workspace, monthly_quota: '1' });
    const reader = new Tenant(stack, own.workspace, await stack.createKey(workspace, 'read'));
    const listed = await reader.get<AssetDetail[]>('/assets');
    expect(listed.status).toBe(200);
    expect(schemaErrors([AssetSummary], listed.body)).toEqual([]);
    await stack.workerAdminCall(WorkerAdminPatterns.webhookTest, { id: endpoint.id });

    const limitsOf = (requests: typeof receiver.received) =>
      requests
        .map((request) => JSON.parse(request.rawBody) as EventEnvelope<{ limit?: string }>)
        .filter((envelope) => envelope.event === 'plan.limit_reached')
        .map((envelope) => envelope.data.limit)
        .sort();
    const received = await eventually(
      () => {
        const got = receiver.on('/contract');
        const kinds = new Set(got.map((request) => request.headers['x-custodian-event']));
        const missing = EMITTED_EVENTS.filter((kind) => !kinds.has(kind));
        if (missing.length > 0 || limitsOf(got).length < 3) {
          throw new Error(`missing ${missing.join(', ')}; limits ${limitsOf(got).join(', ')}`);
        }
        return Promise.resolve(got);
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(limitsOf(received)).toEqual(['assets', 'monthly_quota', 'people']);
    for (const request of received) {
      const envelope = JSON.parse(request.rawBody) as EventEnvelope;
      expect(request.headers['x-custodian-event']).toBe(envelope.event);
      // The event named with its violations, so a failure says which payload differs.
      expect({ event: envelope.event, errors: envelopeErrors(envelope) }).toEqual({
        event: envelope.event,
        errors: [],
      });
    }
  }, 30_000);
});
