import type { Booking, BookingSettings, ErrorBody, Page, PersonDetail } from '@custodian/contracts';
import type { ConsoleClient } from './support/console-client';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

/**
 * Issue 32 items 1 and 2 over HTTP: bookings in the console. Every role sees and books; under
 * approval a member's booking is requested and a manager confirms it; a member confirms,
 * rejects, hands out and changes settings never (403); an overlap is a 409 naming the booking,
 * the asset and the range.
 */
describe('console bookings: roles, approval, conflicts (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  let tenant: Tenant;
  let owner: ConsoleClient;
  let manager: ConsoleClient;
  let member: ConsoleClient;
  let person: PersonDetail;
  const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    owner = await consoleOwner(stack, tenant.workspace.id, 'owner@bookings.example');
    manager = await consoleMember(tenant, 'manager', 'manager@bookings.example');
    member = await consoleMember(tenant, 'member', 'member@bookings.example');
    const made = await owner.post<PersonDetail>('/console/api/people', {
      full_name: 'Katherine Johnson',
    });
    expect(made.status).toBe(201);
    person = made.body;
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  async function asset(name: string): Promise<string> {
    const created = await owner.post<{ id: string }>('/console/api/assets', { name });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it('books under approval: the member’s is requested, the manager confirms, the member cannot', async () => {
    const settings = await manager.patch<BookingSettings>('/console/api/settings/bookings', {
      approval_required: true,
    });
    expect([settings.status, settings.body.approval_required]).toEqual([200, true]);
    expect((await member.get<BookingSettings>('/console/api/settings/bookings')).body).toEqual(
      settings.body,
    );
    // A member changes no setting.
    const refused = await member.patch<ErrorBody>('/console/api/settings/bookings', {
      approval_required: false,
    });
    expect([refused.status, refused.body.message]).toEqual([
      403,
      'Your role (member) cannot confirm, reject, hand out or take back bookings, or change ' +
        'their settings; ask an owner or admin',
    ]);

    const projector = await asset('Projector');
    const requested = await member.post<Booking>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [projector],
      starts_at: at(24),
      ends_at: at(26),
      notes: 'Board meeting',
    });
    expect([requested.status, requested.body.status]).toEqual([201, 'requested']);
    const path = `/console/api/bookings/${requested.body.id}`;
    // The member cannot confirm, nor hand out; the booking is unchanged.
    for (const action of ['confirm', 'check-out']) {
      const denied = await member.post<ErrorBody>(`${path}/${action}`);
      expect({ action, status: denied.status }).toEqual({ action, status: 403 });
    }
    const rejectDenied = await member.post<ErrorBody>(`${path}/reject`, { note: 'no' });
    expect(rejectDenied.status).toBe(403);
    expect((await member.get<Booking>(path)).body.status).toBe('requested');
    // Every role lists it, and finds it by its filters.
    const listed = await member.get<Page<Booking>>(
      `/console/api/bookings?status=requested&asset_id=${projector}`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((booking) => booking.id)).toEqual([requested.body.id]);

    const confirmed = await manager.post<Booking>(`${path}/confirm`);
    expect([confirmed.status, confirmed.body.status]).toEqual([200, 'confirmed']);
    // Once: confirming again is a 409.
    expect((await manager.post(`${path}/confirm`)).status).toBe(409);
    // Handed out and taken back by the manager: completed.
    const out = await manager.post<Booking>(`${path}/check-out`);
    expect([out.status, out.body.status]).toEqual([200, 'checked_out']);
    const back = await manager.post<Booking>(`${path}/check-in`, {});
    expect([back.status, back.body.status]).toEqual([200, 'completed']);
  });

  it('lets the manager reject a request with a reason, and the member cancel their own', async () => {
    const camera = await asset('Camera');
    const first = await member.post<Booking>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [camera],
      starts_at: at(30),
      ends_at: at(31),
    });
    expect(first.body.status).toBe('requested');
    const rejected = await manager.post<Booking>(`/console/api/bookings/${first.body.id}/reject`, {
      note: 'The camera is at the repair shop',
    });
    expect([rejected.status, rejected.body.cancellation]).toEqual([
      200,
      expect.objectContaining({ reason: 'rejected', note: 'The camera is at the repair shop' }),
    ]);
    const second = await member.post<Booking>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [camera],
      starts_at: at(30),
      ends_at: at(31),
    });
    expect(second.status).toBe(201);
    const moved = await member.patch<Booking>(`/console/api/bookings/${second.body.id}`, {
      ends_at: at(32),
    });
    expect([moved.status, moved.body.ends_at]).toEqual([200, expect.any(String)]);
    const cancelled = await member.post<Booking>(`/console/api/bookings/${second.body.id}/cancel`, {
      note: 'Not needed',
    });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
  });

  it('answers an overlap with a 409 naming the booking, the asset and the range', async () => {
    const laptop = await asset('Demo laptop');
    const held = await manager.post<Booking>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [laptop],
      starts_at: at(48),
      ends_at: at(50),
    });
    // A manager's booking is confirmed at once, approval or not.
    expect([held.status, held.body.status]).toEqual([201, 'confirmed']);
    const clash = await member.post<ErrorBody>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [laptop],
      starts_at: at(49),
      ends_at: at(51),
    });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message:
        `The booking overlaps: Demo laptop (${laptop}) is booked from ${held.body.starts_at} ` +
        `to ${held.body.ends_at} by booking ${held.body.id}`,
    });
    // Its availability shows the stretch the booking holds.
    const availability = await member.get<{ busy: Array<{ booking_id: string | null }> }>(
      `/console/api/assets/${laptop}/availability?from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(72))}`,
    );
    expect(availability.status).toBe(200);
    expect(availability.body.busy.map((busy) => busy.booking_id)).toEqual([held.body.id]);
    // A member changes no booking they did not make (the register says who may).
    const notTheirs = await member.patch<ErrorBody>(`/console/api/bookings/${held.body.id}`, {
      notes: 'mine now',
    });
    expect(notTheirs.status).toBe(403);
    const cancelTheirs = await member.post<ErrorBody>(
      `/console/api/bookings/${held.body.id}/cancel`,
      {},
    );
    expect(cancelTheirs.status).toBe(403);
  });
});
