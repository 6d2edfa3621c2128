import { randomUUID } from 'node:crypto';
import {
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type AssetDetail,
  type AssetSummary,
  type Reminder,
  type WarrantyNotice,
  type CreatedWebhookView,
  type ErrorBody,
  type EventEnvelope,
  type License,
  type LicenseExpiry,
  type NoticeSettings,
  type LicenseKey,
  type LicenseSeat,
  type Page,
  type PersonDetail,
} from '@custodian/contracts';
import { WebhookReceiver, envelopeErrors, eventually } from '@custodian/testing';
import { Tenant, TestStack } from './support/stack';

const RACE = 20;

// Each test makes tens of requests and waits for deliveries: seconds on a loaded machine.
jest.setTimeout(30_000);

/**
 * Issue 33 over HTTP, one stack: licences (the seat count exact under a race, the product key
 * only on demand, the licence events at a real receiver), warranties and reminders. Every answer is checked against
 * docs/openapi.json (the stack's contract check).
 */
describe('licences (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50', OVERDUE_TEST_CLOCK: 'on' } });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  let reader: Tenant;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    reader = new Tenant(
      stack,
      tenant.workspace,
      await stack.createKey(tenant.workspace.id, 'read'),
    );
    await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url('/licenses'),
      events:
        'license.created,license.updated,license.deleted,license.seat_assigned,license.seat_released,' +
        'license.expiring,license.expired',
    });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  }, 30_000);

  const person = async (name: string) =>
    (await tenant.post<PersonDetail>('/people', { full_name: name })).body;

  it(`gives exactly 2 of ${RACE} concurrent seat assigns when 2 seats are left`, async () => {
    const made = await tenant.post<License>('/licenses', { name: 'Race licence', seats: 3 });
    expect(made.status).toBe(201);
    const first = await person('First holder');
    expect(
      (await tenant.post(`/licenses/${made.body.id}/seats`, { person_id: first.id })).status,
    ).toBe(201);
    const crowd = [];
    for (let i = 0; i < RACE; i += 1) crowd.push(await person(`Racer ${i}`));
    const answers = await Promise.all(
      crowd.map((racer) =>
        tenant.post<LicenseSeat | ErrorBody>(`/licenses/${made.body.id}/seats`, {
          person_id: racer.id,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 409)).toHaveLength(RACE - 2);
    const refusal = answers.find((answer) => answer.status === 409)?.body as ErrorBody;
    expect(refusal.message).toBe(
      `Licence Race licence (${made.body.id}) has all 3 seats in use; release one or raise seats first`,
    );
    const after = await reader.get<License>(`/licenses/${made.body.id}`);
    expect(after.body.seats_used).toBe(3);
    const seats = await reader.get<LicenseSeat[]>(`/licenses/${made.body.id}/seats`);
    expect(seats.body).toHaveLength(3);
  });

  it('keeps the product key out of every answer but the reveal, which a read key cannot make', async () => {
    const made = await tenant.post<License>('/licenses', {
      name: 'Keyed licence',
      product_key: 'SECRET-KEY-42',
      expires_on: '2027-01-31',
      cost: '99.90',
    });
    expect(made.status).toBe(201);
    expect(made.text).not.toContain('SECRET-KEY-42');
    const listed = await reader.get<Page<License>>('/licenses?search=keyed');
    expect(listed.body.data.map((license) => license.id)).toEqual([made.body.id]);
    expect(listed.text).not.toContain('SECRET-KEY-42');
    expect((await reader.post(`/licenses/${made.body.id}/key`, {})).status).toBe(403);
    const revealed = await tenant.post<LicenseKey>(`/licenses/${made.body.id}/key`, {});
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({ id: made.body.id, product_key: 'SECRET-KEY-42' });
  });

  it('answers bad input naming the field, and a deleted licence 404 until restored', async () => {
    const bad = await tenant.post<ErrorBody>('/licenses', { name: 'Bad', cost: '12.345' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^cost must match/);
    const seats = await tenant.post<ErrorBody>('/licenses', { name: 'Bad', seats: 0 });
    expect(seats.status).toBe(400);
    expect(seats.body.message).toMatch(/seats/);
    const date = await tenant.post<ErrorBody>('/licenses', { name: 'Bad', expires_on: '31/01' });
    expect(date.body.message).toBe('expires_on must be a date (YYYY-MM-DD)');
    const made = await tenant.post<License>('/licenses', { name: 'Binned licence' });
    const deleted = await tenant.delete<License>(`/licenses/${made.body.id}`);
    expect([deleted.status, deleted.body.id]).toEqual([200, made.body.id]);
    expect((await reader.get(`/licenses/${made.body.id}`)).status).toBe(404);
    expect((await tenant.post(`/licenses/${made.body.id}/restore`, {})).status).toBe(200);
    expect((await reader.get(`/licenses/${made.body.id}`)).status).toBe(200);
  });

  it('delivers the licence events, signed, with seats used after each seat change', async () => {
    const made = await tenant.post<License>('/licenses', { name: 'Evented licence', seats: 2 });
    const holder = await person('Evented holder');
    await tenant.patch(`/licenses/${made.body.id}`, { vendor: 'Acme' });
    const seat = await tenant.post<LicenseSeat>(`/licenses/${made.body.id}/seats`, {
      person_id: holder.id,
    });
    const released = await tenant.delete<LicenseSeat>(
      `/licenses/${made.body.id}/seats/${seat.body.id}`,
    );
    expect(released.status).toBe(200);
    await tenant.delete(`/licenses/${made.body.id}`);
    const got = await eventually(() => {
      const envelopes = receiver
        .on('/licenses')
        .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Record<string, unknown>>)
        .filter((envelope) => JSON.stringify(envelope.data).includes(made.body.id));
      if (envelopes.length < 5) throw new Error(`${envelopes.length} of 5`);
      return Promise.resolve(envelopes);
    });
    for (const envelope of got) expect(envelopeErrors(envelope)).toEqual([]);
    expect(got.map((envelope) => envelope.event).sort()).toEqual([
      'license.created',
      'license.deleted',
      'license.seat_assigned',
      'license.seat_released',
      'license.updated',
    ]);
    const assigned = got.find((envelope) => envelope.event === 'license.seat_assigned');
    expect(assigned?.data).toMatchObject({ seats: 2, seats_used: 1, seat: { id: seat.body.id } });
  });

  it('tells of expiries on the notice settings: expiring inside a threshold at once, expired once', async () => {
    const defaults = await reader.get<NoticeSettings>('/settings/notices');
    expect(defaults.body).toEqual({ expiry_days: [30, 7], updated_at: null });
    const bad = async (body: object, message: string) => {
      const answer = await tenant.patch<ErrorBody>('/settings/notices', body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(message);
    };
    await bad({ expiry_days: [0] }, 'each of expiry_days must be at least 1');
    await bad({ expiry_days: [7, 7] }, 'expiry_days must name each threshold once');
    await bad({}, 'Give at least one field to change: expiry_days');
    expect((await reader.patch('/settings/notices', { expiry_days: [3] })).status).toBe(403);
    const changed = await tenant.patch<NoticeSettings>('/settings/notices', {
      expiry_days: [3, 10],
    });
    expect(changed.body.expiry_days).toEqual([10, 3]);
    const day = (days: number) =>
      new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    // Ends in two days: inside the 3-day threshold, told at once (the 10-day one is not).
    const soon = await tenant.post<License>('/licenses', { name: 'Soon over', expires_on: day(2) });
    // Ended yesterday: expired, told at once.
    const over = await tenant.post<License>('/licenses', {
      name: 'Long over',
      expires_on: day(-1),
    });
    // The engine's next sweep tells them; the test clock runs it now rather than waiting.
    await stack.registerAdminCall(RegisterAdminPatterns.overdueSweep, {
      at: new Date(Date.now() + 1_000).toISOString(),
    });
    const told = await eventually(
      () => {
        const envelopes = receiver
          .on('/licenses')
          .map((request) => JSON.parse(request.rawBody) as EventEnvelope<LicenseExpiry>)
          .filter((envelope) => envelope.event.startsWith('license.expir'));
        if (envelopes.length < 2) throw new Error(`${envelopes.length} of 2`);
        return Promise.resolve(envelopes);
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    for (const envelope of told) expect(envelopeErrors(envelope)).toEqual([]);
    const byLicence = Object.fromEntries(
      told.map((envelope) => [envelope.data.license.id, envelope]),
    );
    expect(byLicence[soon.body.id]).toMatchObject({
      event: 'license.expiring',
      data: { expires_on: day(2), license: { name: 'Soon over' } },
    });
    expect(byLicence[soon.body.id]!.data.days_left).toBeLessThanOrEqual(3);
    expect(byLicence[over.body.id]).toMatchObject({
      event: 'license.expired',
      data: { expires_on: day(-1), days_left: 0 },
    });
    expect(told).toHaveLength(2);
  }, 20_000);

  it('releases an offboarded person’s seats when the PATCH asks for it', async () => {
    const made = await tenant.post<License>('/licenses', { name: 'Offboarding licence' });
    const leaver = await person('Leaver');
    await tenant.post(`/licenses/${made.body.id}/seats`, { person_id: leaver.id });
    const misplaced = await tenant.patch<ErrorBody>(`/people/${leaver.id}`, {
      release_licenses: true,
    });
    expect([misplaced.status, misplaced.body.message]).toEqual([
      400,
      'release_licenses goes with status: inactive (it releases the seats of an offboarding)',
    ]);
    const gone = await tenant.patch<PersonDetail>(`/people/${leaver.id}`, {
      status: 'inactive',
      release_licenses: true,
    });
    expect([gone.status, gone.body.status]).toEqual([200, 'inactive']);
    expect((await reader.get<LicenseSeat[]>(`/licenses/${made.body.id}/seats`)).body).toEqual([]);
  });

  describe('warranties and reminders', () => {
    const HOUR = 3_600_000;
    const day = (days: number) =>
      new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const told = <T extends object>(event: string, count: number) =>
      eventually(
        () => {
          const envelopes = receiver
            .on('/dates')
            .map((request) => JSON.parse(request.rawBody) as EventEnvelope<T>)
            .filter((envelope) => envelope.event === event);
          if (envelopes.length < count) throw new Error(`${envelopes.length} of ${count} ${event}`);
          return Promise.resolve(envelopes);
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
    const clock = (at: Date) =>
      stack.registerAdminCall<{ fired: number }>(RegisterAdminPatterns.overdueSweep, {
        at: at.toISOString(),
      });

    beforeAll(async () => {
      await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
        workspace: tenant.workspace.id,
        url: receiver.url('/dates'),
        events: 'warranty.expiring,warranty.expired,reminder.due',
      });
    });

    it('keeps purchase and warranty dates, filters by them, and tells of a warranty ending', async () => {
      const bad = async (body: object, message: string) => {
        const answer = await tenant.post<ErrorBody>('/assets', { name: 'Bad dates', ...body });
        expect([answer.status, answer.body.message]).toEqual([400, message]);
      };
      await bad({ warranty_expires_on: '2027-02-30' }, 'warranty_expires_on must be a valid date');
      await bad({ purchase_date: '1/2/2027' }, 'purchase_date must be a date (YYYY-MM-DD)');
      await bad(
        { purchase_date: '2027-03-01', warranty_expires_on: '2027-02-28' },
        'warranty_expires_on (2027-02-28) must not be before purchase_date (2027-03-01)',
      );
      const soon = await tenant.post<AssetDetail>('/assets', {
        name: 'Warranty soon',
        purchase_date: day(-700),
        warranty_expires_on: day(20),
      });
      expect(soon.status).toBe(201);
      expect(soon.body).toMatchObject({ purchase_date: day(-700), warranty_expires_on: day(20) });
      await tenant.post<AssetDetail>('/assets', {
        name: 'Warranty later',
        warranty_expires_on: day(900),
      });
      const listed = await reader.get<Page<AssetSummary>>(
        `/assets?page=1&warranty_expires_before=${day(60)}`,
      );
      expect(listed.body.data.map((asset) => asset.name)).toEqual(['Warranty soon']);
      const wrong = await reader.get<ErrorBody>('/assets?warranty_expires_before=soon');
      expect([wrong.status, wrong.body.message]).toEqual([
        400,
        'warranty_expires_before must be a date (YYYY-MM-DD)',
      ]);
      // 20 days left: inside the 30-day threshold (the workspace's are 10 and 3 now: the
      // licence test above set them), so the 10-day notice comes at its day.
      await clock(new Date(Date.now() + 11 * 86_400_000));
      const [expiring] = await told<WarrantyNotice>('warranty.expiring', 1);
      expect(envelopeErrors(expiring!)).toEqual([]);
      expect(expiring!.data).toEqual({
        asset: { id: soon.body.id, name: 'Warranty soon', asset_tag: soon.body.asset_tag },
        expires_on: day(20),
        days_left: 10,
      });
    });

    it('fires a monthly reminder once per occurrence, and keeps its rules', async () => {
      const asset = await tenant.post<AssetDetail>('/assets', { name: 'Forklift' });
      const first = new Date(Date.now() + HOUR);
      const key = randomUUID();
      const create = () =>
        tenant.request<Reminder>('/reminders', {
          method: 'POST',
          body: {
            title: 'Service the forklift',
            due_at: first.toISOString(),
            repeat: { every: 1, unit: 'month' },
            asset_id: asset.body.id,
          },
          headers: { 'idempotency-key': key },
        });
      const made = await create();
      expect(made.status).toBe(201);
      expect((await create()).body).toEqual(made.body);
      expect(made.body).toMatchObject({
        status: 'scheduled',
        due_at: first.toISOString(),
        repeat: { every: 1, unit: 'month' },
        asset: { id: asset.body.id, name: 'Forklift' },
      });
      const bad = async (body: object, message: string | RegExp) => {
        const answer = await tenant.post<ErrorBody>('/reminders', body);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toMatch(message);
      };
      await bad({ title: 'No date' }, /^due_at must be/);
      await bad(
        { title: 'Past', due_at: '2020-01-01T00:00:00Z' },
        'due_at must be in the future (it is 2020-01-01T00:00:00Z)',
      );
      await bad(
        { title: 'Often', due_at: first.toISOString(), repeat: { every: 0, unit: 'month' } },
        'repeat.every must not be less than 1',
      );
      await bad(
        { title: 'Yearly', due_at: first.toISOString(), repeat: { every: 1, unit: 'year' } },
        'repeat.unit must be one of day, week, month',
      );
      expect((await reader.post('/reminders', { title: 'Read key' })).status).toBe(403);
      const elsewhere = await stack.tenant('pro', 'write');
      expect((await elsewhere.get(`/reminders/${made.body.id}`)).status).toBe(404);

      await clock(new Date(first.getTime() + HOUR));
      await clock(new Date(first.getTime() + 2 * HOUR));
      const month = new Date(made.body.next_due_at ?? '');
      await clock(new Date(month.getTime() + HOUR));
      const due = await told<Reminder>('reminder.due', 2);
      const ours = due.filter((envelope) => envelope.data.id === made.body.id);
      expect(ours.map((envelope) => envelope.data.due_at)).toEqual([
        first.toISOString(),
        month.toISOString(),
      ]);
      for (const envelope of ours) expect(envelopeErrors(envelope)).toEqual([]);
      const after = await reader.get<Reminder>(`/reminders/${made.body.id}`);
      expect(after.body).toMatchObject({ occurrences: 2, last_due_at: month.toISOString() });
      const listed = await reader.get<Page<Reminder>>(`/reminders?asset_id=${asset.body.id}`);
      expect(listed.body.data.map((reminder) => reminder.id)).toEqual([made.body.id]);

      const cancelled = await tenant.delete<Reminder>(`/reminders/${made.body.id}`);
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
      const late = await tenant.patch<ErrorBody>(`/reminders/${made.body.id}`, { title: 'Late' });
      expect([late.status, late.body.message]).toEqual([
        409,
        `Reminder Service the forklift (${made.body.id}) is cancelled; create a new one instead`,
      ]);
    });
  });
});
