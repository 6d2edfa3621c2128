import {
  bookingButtons,
  bookingFormErrors,
  defaultRange,
  fromLocalInput,
  isBookingStatus,
  movableDates,
  parseConflicts,
  statusLabel,
  toLocalInput,
} from './booking-values';

const FUTURE = '2999-01-01T00:00:00.000Z';
const PAST = '2000-01-01T00:00:00.000Z';
const MANAGER = { request: true, manage: true };
const MEMBER = { request: true, manage: false };
const NOBODY = { request: false, manage: false };

describe('bookingButtons', () => {
  it('offers a manager confirm and reject on a request, hand-out on a confirmed booking', () => {
    expect(bookingButtons({ status: 'requested', ends_at: FUTURE }, MANAGER)).toEqual([
      'confirm',
      'reject',
      'cancel',
      'edit',
    ]);
    expect(bookingButtons({ status: 'confirmed', ends_at: FUTURE }, MANAGER)).toEqual([
      'check-out',
      'cancel',
      'edit',
    ]);
    expect(bookingButtons({ status: 'checked_out', ends_at: FUTURE }, MANAGER)).toEqual([
      'check-in',
      'edit',
    ]);
    expect(bookingButtons({ status: 'overdue', ends_at: PAST }, MANAGER)).toEqual([
      'check-in',
      'edit',
    ]);
  });

  it('offers a member only cancel and edit, and nothing on a closed booking', () => {
    expect(bookingButtons({ status: 'requested', ends_at: FUTURE }, MEMBER)).toEqual([
      'cancel',
      'edit',
    ]);
    expect(bookingButtons({ status: 'checked_out', ends_at: FUTURE }, MEMBER)).toEqual(['edit']);
    for (const status of ['cancelled', 'completed', 'no_show'] as const) {
      expect(bookingButtons({ status, ends_at: FUTURE }, MANAGER)).toEqual([]);
    }
    expect(bookingButtons({ status: 'requested', ends_at: FUTURE }, NOBODY)).toEqual([]);
  });

  it('does not offer to confirm or hand out a booking that has ended', () => {
    expect(bookingButtons({ status: 'requested', ends_at: PAST }, MANAGER)).toEqual([
      'cancel',
      'edit',
    ]);
    expect(bookingButtons({ status: 'confirmed', ends_at: PAST }, MANAGER)).toEqual([
      'cancel',
      'edit',
    ]);
  });
});

describe('movableDates', () => {
  it('moves both dates before the hand-out, only the end after, nothing once closed', () => {
    expect(movableDates('requested')).toBe('both');
    expect(movableDates('confirmed')).toBe('both');
    expect(movableDates('checked_out')).toBe('end');
    expect(movableDates('overdue')).toBe('end');
    expect(movableDates('completed')).toBe('none');
  });
});

describe('parseConflicts', () => {
  it('reads each booking, asset and range the register names, and how many more', () => {
    const message =
      'The booking overlaps: Sony A7 (IV) (ast_01jd8x2b6c8e0g2j4m6p8r0t2x) is booked from ' +
      '2026-12-04T09:00:00.000Z to 2026-12-04T18:00:00.000Z by booking ' +
      'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k; Tripod (ast_01jd8x2b6c8e0g2j4m6p8r0t2y) is booked from ' +
      '2026-12-05T09:00:00.000Z to 2026-12-06T09:00:00.000Z by booking ' +
      'bkg_01jd8z4a5b6c7d8e9f0g1h2j3m; and 3 more';
    expect(parseConflicts(message)).toEqual({
      lead: '',
      conflicts: [
        {
          assetName: 'Sony A7 (IV)',
          assetId: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2x',
          from: '2026-12-04T09:00:00.000Z',
          to: '2026-12-04T18:00:00.000Z',
          bookingId: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
        },
        {
          assetName: 'Tripod',
          assetId: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2y',
          from: '2026-12-05T09:00:00.000Z',
          to: '2026-12-06T09:00:00.000Z',
          bookingId: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3m',
        },
      ],
      more: 3,
    });
  });

  it('keeps what a hand-out refused early said before the conflicts', () => {
    const message =
      'Booking bkg_01jd8z4a5b6c7d8e9f0g1h2j3m cannot be checked out before its start: The ' +
      'booking overlaps: Camera (ast_01jd8x2b6c8e0g2j4m6p8r0t2x) is booked from ' +
      '2026-12-04T09:00:00.000Z to 2026-12-04T18:00:00.000Z by booking ' +
      'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k';
    const parsed = parseConflicts(message);
    expect(parsed.lead).toBe(
      'Booking bkg_01jd8z4a5b6c7d8e9f0g1h2j3m cannot be checked out before its start',
    );
    expect(parsed.conflicts.map((conflict) => conflict.bookingId)).toEqual([
      'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
    ]);
  });

  it('finds none in another 409', () => {
    expect(
      parseConflicts('Booking bkg_1 is completed; only a requested booking can be confirmed'),
    ).toEqual({ lead: '', conflicts: [], more: 0 });
  });
});

describe('datetime-local fields', () => {
  it('round-trips an instant through the field, to the minute', () => {
    const iso = '2026-12-04T09:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(toLocalInput('not a date')).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2026-12-04')).toBeNull();
  });

  it('defaults a new booking to the next full hour, for an hour', () => {
    const { startsAt, endsAt } = defaultRange(new Date(2026, 11, 4, 9, 20));
    expect([startsAt, endsAt]).toEqual(['2026-12-04T10:00', '2026-12-04T11:00']);
  });
});

describe('bookingFormErrors', () => {
  const valid = {
    personId: 'per_1',
    assetIds: ['ast_1'],
    startsAt: '2026-12-04T10:00',
    endsAt: '2026-12-04T11:00',
    notes: '',
  };

  it('accepts a whole form and names each missing or wrong field', () => {
    expect(bookingFormErrors(valid)).toEqual({});
    expect(
      bookingFormErrors({ ...valid, personId: '', assetIds: [], startsAt: '', endsAt: '' }),
    ).toEqual({
      personId: 'Choose who the assets are for.',
      assetIds: 'Choose at least one asset.',
      startsAt: 'Give the start, date and time.',
      endsAt: 'Give the end, date and time.',
    });
    expect(bookingFormErrors({ ...valid, endsAt: '2026-12-04T10:00' })).toEqual({
      endsAt: 'The end must be after the start.',
    });
  });

  it('reads a rejected booking as rejected, not cancelled', () => {
    const at = '2026-12-04T09:00:00.000Z';
    expect(
      statusLabel({ status: 'cancelled', cancellation: { reason: 'rejected', note: 'No', at } }),
    ).toBe('Rejected');
    expect(
      statusLabel({ status: 'cancelled', cancellation: { reason: 'cancelled', note: null, at } }),
    ).toBe('Cancelled');
    expect(statusLabel({ status: 'checked_out', cancellation: null })).toBe('Checked out');
  });

  it('knows the statuses', () => {
    expect(isBookingStatus('requested')).toBe(true);
    expect(isBookingStatus('pending')).toBe(false);
    expect(isBookingStatus(null)).toBe(false);
  });
});
