import {
  RegisterAdminPatterns,
  type AssetRequest,
  WorkerAdminPatterns,
  type AssetDetail,
  type Booking,
  type BookingSettings,
  type CreatedWebhookView,
  type ErrorBody,
  type EventEnvelope,
  type Page,
  type PersonDetail,
} from '@custodian/contracts';
import { WebhookReceiver, envelopeErrors, eventually } from '@custodian/testing';
import { verify } from '@custodian/webhook-signature';
import { randomUUID } from 'node:crypto';
import { consoleMember } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const RACE = 50;

/**
 * Issue 32, first part, over HTTP: bookings through the public API, the overlap refused by
 * the database under a race, and the booking events at a real receiver, signed. Every answer
 * is checked against docs/openapi.json (the stack's contract check).
 */
describe('bookings (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50', OVERDUE_TEST_CLOCK: 'on' } });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  let reader: Tenant;
  let endpoint: CreatedWebhookView;
  let person: PersonDetail;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    reader = new Tenant(
      stack,
      tenant.workspace,
      await stack.createKey(tenant.workspace.id, 'read'),
    );
    endpoint = await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url('/bookings'),
      events: [
        'booking.created,booking.confirmed,booking.cancelled,booking.checked_out',
        'booking.completed,booking.overdue,booking.no_show',
        'assignment.checked_out,assignment.checked_in,assignment.overdue',
      ].join(','),
    });
    person = (await tenant.post<PersonDetail>('/people', { full_name: 'Ada Lovelace' })).body;
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  async function asset(name: string): Promise<AssetDetail> {
    const created = await tenant.post<AssetDetail>('/assets', { name });
    expect(created.status).toBe(201);
    return created.body;
  }

  it(`gives exactly one 201 of ${RACE} concurrent overlapping bookings, 409s naming it`, async () => {
    const camera = await asset('Race camera');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: RACE }, async (_, i) => {
        const sent = Date.now();
        const answer = await tenant.request<Booking | ErrorBody>('/bookings', {
          method: 'POST',
          body: {
            person_id: person.id,
            asset_ids: [camera.id],
            starts_at: at(24 + i * 0.01),
            ends_at: at(48),
          },
        });
        return { answer, ms: Date.now() - sent };
      }),
    );
    const statuses = answers.map(({ answer }) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(RACE - 1);
    const made = answers.find(({ answer }) => answer.status === 201)!.answer.body as Booking;
    for (const { answer } of answers.filter(({ answer }) => answer.status === 409)) {
      expect((answer.body as ErrorBody).message).toContain(`Race camera (${camera.id})`);
      expect((answer.body as ErrorBody).message).toContain(made.id);
    }
    const times = answers.map(({ ms }) => ms).sort((a, b) => a - b);
    const p99 = times[Math.ceil(times.length * 0.99) - 1];
    console.log(`bookings race: ${RACE} requests in ${Date.now() - started} ms, p99 ${p99} ms`);
  });

  it('books, lists, fetches and cancels, and the receiver gets created, confirmed and cancelled, signed', async () => {
    const camera = await asset('Camera');
    const tripod = await asset('Tripod');
    const key = randomUUID();
    const body = {
      person_id: person.id,
      asset_ids: [camera.id, tripod.id],
      starts_at: at(100),
      ends_at: at(110),
      notes: 'Product shoot',
    };
    const created = await tenant.request<Booking>('/bookings', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': key },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'confirmed', notes: 'Product shoot' });
    const retried = await tenant.request<Booking>('/bookings', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': key },
    });
    expect(retried.text).toBe(created.text);

    const fetched = await reader.get<Booking>(`/bookings/${created.body.id}`);
    expect(fetched.body).toEqual(created.body);
    const listed = await reader.get<Page<Booking>>(
      `/bookings?asset_id=${tripod.id}&from=${encodeURIComponent(at(105))}`,
    );
    expect(listed.body.data.map((booking) => booking.id)).toEqual([created.body.id]);

    const cancelled = await tenant.post<Booking>(`/bookings/${created.body.id}/cancel`, {
      note: 'Moved to next week',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.cancellation).toMatchObject({ reason: 'cancelled' });

    const received = await eventually(() => {
      const got = receiver
        .on('/bookings')
        .filter((request) => request.rawBody.includes(created.body.id));
      if (got.length < 3) throw new Error(`${got.length} of 3 events`);
      return Promise.resolve(got);
    });
    for (const request of received) {
      const check = verify(
        endpoint.secret,
        request.rawBody,
        request.headers['x-custodian-timestamp'] as string,
        request.headers['x-custodian-signature'] as string,
      );
      expect(check).toEqual({ ok: true });
    }
    const envelopes = received.map(
      (request) => JSON.parse(request.rawBody) as EventEnvelope<Booking>,
    );
    for (const envelope of envelopes) expect(envelopeErrors(envelope)).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event).sort()).toEqual([
      'booking.cancelled',
      'booking.confirmed',
      'booking.created',
    ]);
    const cancelledEvent = envelopes.find((envelope) => envelope.event === 'booking.cancelled');
    expect(cancelledEvent?.data).toEqual(cancelled.body);
  });

  it('answers bad input with the error body naming the field, and a read key cannot book', async () => {
    const camera = await asset('Validated camera');
    const bad = await tenant.post<ErrorBody>('/bookings', {
      person_id: person.id,
      asset_ids: [camera.id],
      starts_at: 'tomorrow',
      ends_at: at(2),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/starts_at must be a date and time/);
    const backwards = await tenant.post<ErrorBody>('/bookings', {
      person_id: person.id,
      asset_ids: [camera.id],
      starts_at: at(3),
      ends_at: at(2),
    });
    expect([backwards.status, backwards.body.message]).toEqual([
      400,
      'ends_at must be after starts_at',
    ]);
    const refused = await reader.post<ErrorBody>('/bookings', {
      person_id: person.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(2),
    });
    expect(refused.status).toBe(403);
    const missing = await reader.get<ErrorBody>('/bookings/bkg_nope');
    expect(missing.status).toBe(404);
  });

  it("walks a booking's whole life: checked out early, overdue at its end (the clock moved), back", async () => {
    const camera = await asset('Life camera');
    const created = await tenant.post<Booking>('/bookings', {
      person_id: person.id,
      asset_ids: [camera.id],
      starts_at: at(2),
      ends_at: at(6),
    });
    expect(created.status).toBe(201);
    const out = await tenant.post<Booking>(`/bookings/${created.body.id}/check-out`, {});
    expect([out.status, out.body.status]).toEqual([200, 'checked_out']);
    const held = await tenant.get<AssetDetail>(`/assets/${camera.id}`);
    expect(held.body.custody).toMatchObject({
      person: { id: person.id },
      due_at: created.body.ends_at,
    });

    // The engine's clock past the end: booking.overdue (and the asset's assignment.overdue).
    const fired = await stack.registerAdminCall<{ fired: number }>(
      RegisterAdminPatterns.overdueSweep,
      {
        at: at(7),
      },
    );
    expect(fired.fired).toBeGreaterThanOrEqual(2);
    expect((await tenant.get<Booking>(`/bookings/${created.body.id}`)).body.status).toBe('overdue');

    const back = await tenant.post<Booking>(`/bookings/${created.body.id}/check-in`, {});
    expect([back.status, back.body.status]).toEqual([200, 'completed']);

    const kinds = await eventually(() => {
      const got = receiver
        .on('/bookings')
        .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Record<string, unknown>>)
        .filter(
          (envelope) =>
            JSON.stringify(envelope.data).includes(created.body.id) ||
            JSON.stringify(envelope.data).includes(camera.id),
        );
      const names = got.map((envelope) => envelope.event).sort();
      if (names.length < 8) throw new Error(`${names.length} of 8 events: ${names.join(', ')}`);
      for (const envelope of got) expect(envelopeErrors(envelope)).toEqual([]);
      return Promise.resolve(names);
    });
    expect(kinds).toEqual([
      'assignment.checked_in',
      'assignment.checked_out',
      'assignment.overdue',
      'booking.checked_out',
      'booking.completed',
      'booking.confirmed',
      'booking.created',
      'booking.overdue',
    ]);
  });

  it('reads and changes the booking settings, naming a bad field; a read key only reads', async () => {
    const defaults = await reader.get<BookingSettings>('/settings/bookings');
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ approval_required: false, no_show_grace_minutes: 60 });
    const bad = await tenant.patch<ErrorBody>('/settings/bookings', { no_show_grace_minutes: -5 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/no_show_grace_minutes/);
    const empty = await tenant.patch<ErrorBody>('/settings/bookings', {});
    expect([empty.status, empty.body.message]).toEqual([
      400,
      'Send approval_required, no_show_grace_minutes, or both',
    ]);
    expect((await reader.patch('/settings/bookings', { approval_required: true })).status).toBe(
      403,
    );
    const changed = await tenant.patch<BookingSettings>('/settings/bookings', {
      no_show_grace_minutes: 30,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ approval_required: false, no_show_grace_minutes: 30 });
    expect((await reader.get<BookingSettings>('/settings/bookings')).body).toEqual(changed.body);
    // Back to the default, for the other tests of this file.
    await tenant.patch('/settings/bookings', { no_show_grace_minutes: 60 });
  });

  it('moves a booking with PATCH (a 409 names the booking in the way), and refuses what it cannot', async () => {
    const [camera, lens] = [await asset('Moved camera'), await asset('Moved lens')];
    const book = (assetId: string, from: number, to: number) =>
      tenant.post<Booking>('/bookings', {
        person_id: person.id,
        asset_ids: [assetId],
        starts_at: at(from),
        ends_at: at(to),
      });
    const blocking = (await book(camera.id, 100, 110)).body;
    const moving = (await book(lens.id, 100, 110)).body;
    const later = at(120);
    const moved = await tenant.patch<Booking>(`/bookings/${moving.id}`, {
      ends_at: later,
      notes: 'Longer',
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ ends_at: new Date(later).toISOString(), notes: 'Longer' });
    const clash = await tenant.patch<ErrorBody>(`/bookings/${moving.id}`, {
      asset_ids: [camera.id, lens.id],
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain(`by booking ${blocking.id}`);
    const badIds = await tenant.patch<ErrorBody>(`/bookings/${moving.id}`, { asset_ids: [] });
    expect([badIds.status, badIds.body.message]).toEqual([
      400,
      'asset_ids must name at least one asset',
    ]);
    // A confirmed booking: nothing to confirm or reject; the reason is required.
    const confirm = await tenant.post<ErrorBody>(`/bookings/${moving.id}/confirm`, {});
    expect(confirm.status).toBe(409);
    expect(confirm.body.message).toMatch(/only a requested booking can be confirmed/);
    const noReason = await tenant.post<ErrorBody>(`/bookings/${moving.id}/reject`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/^note /);
    const reject = await tenant.post<ErrorBody>(`/bookings/${moving.id}/reject`, { note: 'No' });
    expect(reject.status).toBe(409);
    expect((await reader.patch(`/bookings/${moving.id}`, { notes: 'x' })).status).toBe(403);
  });

  describe('requests', () => {
    let requestsHook: CreatedWebhookView;

    beforeAll(async () => {
      requestsHook = await stack.workerAdminCall<CreatedWebhookView>(
        WorkerAdminPatterns.webhookCreate,
        {
          workspace: tenant.workspace.id,
          url: receiver.url('/requests'),
          events: [
            'request.created,request.approved,request.rejected',
            'booking.created,booking.confirmed,assignment.checked_out',
          ].join(','),
        },
      );
    });

    const asset = async (name: string, category?: string) =>
      (await tenant.post<AssetDetail>('/assets', { name, ...(category ? { category } : {}) })).body;

    it('asks, approves as a booking or a check-out, rejects: the events arrive signed, in order', async () => {
      const camera = await asset('Request camera', 'Request cameras');
      const tripod = await asset('Request tripod');
      const asked = await tenant.post<AssetRequest>('/requests', {
        person_id: person.id,
        category: 'request cameras',
        starts_at: at(72),
        ends_at: at(80),
        note: 'Friday shoot',
      });
      expect(asked.status).toBe(201);
      expect(asked.body).toMatchObject({
        status: 'pending',
        category: { name: 'Request cameras' },
      });
      // The inbox: newest first, pending; the read key sees it too.
      const inbox = await reader.get<Page<AssetRequest>>('/requests?status=pending');
      expect(inbox.status).toBe(200);
      expect(inbox.body.data.map((request) => request.id)).toContain(asked.body.id);
      // Approved as a booking, with the Idempotency-Key: a retry answers the same approval.
      const key = randomUUID();
      const approve = () =>
        tenant.request<AssetRequest>(`/requests/${asked.body.id}/approve`, {
          method: 'POST',
          body: { asset_id: camera.id },
          headers: { 'idempotency-key': key },
        });
      const approved = await approve();
      expect(approved.status).toBe(200);
      expect(approved.body.decision).toMatchObject({
        asset: { id: camera.id },
        fulfilled_by: 'booking',
      });
      expect((await approve()).body).toEqual(approved.body);
      const bookingId = approved.body.decision?.booking_id ?? '';
      const booking = await reader.get<Booking>(`/bookings/${bookingId}`);
      expect(booking.body).toMatchObject({ status: 'confirmed', starts_at: asked.body.starts_at });
      // Decided already: a 409 whatever the body.
      const again = await tenant.post<ErrorBody>(`/requests/${asked.body.id}/reject`, {
        note: 'Too late',
      });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(
        `Request ${asked.body.id} is already approved; only a pending request can be rejected`,
      );
      // For now, checked out now.
      const now = await tenant.post<AssetRequest>('/requests', {
        person_id: person.id,
        asset_id: tripod.id,
      });
      const handed = await tenant.post<AssetRequest>(`/requests/${now.body.id}/approve`, {});
      expect(handed.status).toBe(200);
      expect(handed.body.decision?.fulfilled_by).toBe('check_out');
      expect((await reader.get<AssetDetail>(`/assets/${tripod.id}`)).body.assigned_to?.id).toBe(
        person.id,
      );
      // Refused with the reason.
      const no = await tenant.post<AssetRequest>('/requests', {
        person_id: person.id,
        asset_id: camera.id,
      });
      const rejected = await tenant.post<AssetRequest>(`/requests/${no.body.id}/reject`, {
        note: 'Only one camera',
      });
      expect(rejected.body).toMatchObject({
        status: 'rejected',
        decision: { note: 'Only one camera' },
      });

      const ids = [asked.body.id, now.body.id, no.body.id, bookingId, tripod.id];
      const received = await eventually(() => {
        const got = receiver
          .on('/requests')
          .filter((request) => ids.some((id) => request.rawBody.includes(id)));
        if (got.length < 9) throw new Error(`${got.length} of 9 events`);
        return Promise.resolve(got);
      });
      for (const request of received) {
        expect(
          verify(
            requestsHook.secret,
            request.rawBody,
            request.headers['x-custodian-timestamp'] as string,
            request.headers['x-custodian-signature'] as string,
          ),
        ).toEqual({ ok: true });
        expect(envelopeErrors(JSON.parse(request.rawBody) as EventEnvelope)).toEqual([]);
      }
      const kinds = received.map((request) => request.headers['x-custodian-event']).sort();
      expect(kinds).toEqual([
        'assignment.checked_out',
        'booking.confirmed',
        'booking.created',
        'request.approved',
        'request.approved',
        'request.created',
        'request.created',
        'request.created',
        'request.rejected',
      ]);
    });

    it('answers bad input with the field named, an unknown request with 404, a read key with 403', async () => {
      const camera = await asset('Request camera 2');
      const bad = async (body: object, message: string | RegExp) => {
        const answer = await tenant.post<ErrorBody>('/requests', body);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
        expect(answer.body.message).toMatch(message);
      };
      await bad({ asset_id: camera.id }, /person_id/);
      await bad(
        { person_id: person.id },
        'asset_id or category: give exactly one (a given asset, or any asset of a category)',
      );
      await bad(
        { person_id: person.id, asset_id: camera.id, starts_at: 'Friday', ends_at: at(2) },
        /starts_at/,
      );
      await bad(
        { person_id: person.id, category: 'Submarines' },
        'category: no category named "Submarines" in this workspace',
      );
      await bad({ person_id: person.id, asset_id: camera.id, colour: 'red' }, /colour/);
      const missing = await tenant.get<ErrorBody>('/requests/req_00000000000000000000000000');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Request req_00000000000000000000000000 not found');
      const asked = await tenant.post<AssetRequest>('/requests', {
        person_id: person.id,
        asset_id: camera.id,
      });
      const reject = await tenant.post<ErrorBody>(`/requests/${asked.body.id}/reject`, {});
      expect(reject.status).toBe(400);
      expect(reject.body.message).toMatch(/note/);
      const byReader = await reader.post<ErrorBody>(`/requests/${asked.body.id}/approve`, {});
      expect(byReader.status).toBe(403);
      expect((await reader.get<AssetRequest>(`/requests/${asked.body.id}`)).body.status).toBe(
        'pending',
      );
    });

    it('in the console: members ask and see their own, a manager decides, a member cannot', async () => {
      const camera = await asset('Console camera');
      const alice = await consoleMember(tenant, 'member', 'alice@requests.example');
      const bob = await consoleMember(tenant, 'member', 'bob@requests.example');
      const manager = await consoleMember(tenant, 'manager', 'manager@requests.example');
      const ask = async (client: typeof alice) => {
        const made = await client.post<AssetRequest>('/console/api/requests', {
          person_id: person.id,
          asset_id: camera.id,
          starts_at: at(100),
          ends_at: at(104),
        });
        expect(made.status).toBe(201);
        return made.body;
      };
      const mine = await ask(alice);
      const theirs = await ask(bob);
      const own = await alice.get<Page<AssetRequest>>('/console/api/requests');
      expect(own.body.data.map((request) => request.id)).toEqual([mine.id]);
      expect((await alice.get(`/console/api/requests/${theirs.id}`)).status).toBe(404);
      const forbidden = await alice.post<ErrorBody>(`/console/api/requests/${mine.id}/approve`, {});
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.message).toMatch(/approve or reject asset requests/);
      const inbox = await manager.get<Page<AssetRequest>>('/console/api/requests?status=pending');
      expect(inbox.body.data.map((request) => request.id)).toEqual(
        expect.arrayContaining([mine.id, theirs.id]),
      );
      const approved = await manager.post<AssetRequest>(
        `/console/api/requests/${mine.id}/approve`,
        {},
      );
      expect(approved.status).toBe(200);
      expect(approved.body.decision?.fulfilled_by).toBe('booking');
      // The same slot for Bob: the booking Alice's approval made is in the way, named.
      const clash = await manager.post<ErrorBody>(`/console/api/requests/${theirs.id}/approve`, {});
      expect(clash.status).toBe(409);
      expect(clash.body.message).toContain(approved.body.decision?.booking_id ?? 'bkg_');
      const rejected = await manager.post<AssetRequest>(
        `/console/api/requests/${theirs.id}/reject`,
        { note: 'Alice has it that day' },
      );
      expect(rejected.body).toMatchObject({
        status: 'rejected',
        decision: { note: 'Alice has it that day' },
      });
      expect((await bob.get<AssetRequest>(`/console/api/requests/${theirs.id}`)).body.status).toBe(
        'rejected',
      );
    });
  });
});
