import type { FeedBookingRow, FeedCheckOutRow } from '../bookings/booking-feed.store';
import { capFeed } from './feed-order';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const HOUR = 3_600_000;
const hours = (n: number) => new Date(NOW.getTime() + n * HOUR);

function booking(id: string, start: number, end: number): FeedBookingRow {
  return {
    id,
    status: 'confirmed',
    starts_at: hours(start),
    ends_at: hours(end),
    person_name: 'Ada',
    assets: [],
    notes: null,
    completed_at: null,
    updated_at: NOW,
  };
}

function checkOut(assetId: string, due: number): FeedCheckOutRow {
  return {
    asset_id: assetId,
    asset_name: 'Lamp',
    asset_tag: '',
    person_name: 'Grace',
    assigned_at: hours(-100),
    due_at: hours(due),
  };
}

describe('capFeed', () => {
  it('keeps what is on now and next before the past, and says when it left some out', () => {
    const kept = capFeed(
      [booking('past-old', -50, -40), booking('on-now', -1, 1), booking('far', 300, 301)],
      [checkOut('due-soon', 5), checkOut('due-past', -2)],
      NOW,
      3,
    );
    expect(kept.bookings.map((row) => row.id)).toEqual(['on-now', 'far']);
    expect(kept.checkOuts.map((row) => row.asset_id)).toEqual(['due-soon']);
    expect(kept.truncated).toBe(true);
  });

  it('keeps the most recent of the past first', () => {
    const kept = capFeed(
      [booking('older', -50, -40), booking('recent', -10, -5)],
      [checkOut('due-past', -20)],
      NOW,
      2,
    );
    expect(kept.bookings.map((row) => row.id)).toEqual(['recent']);
    expect(kept.checkOuts.map((row) => row.asset_id)).toEqual(['due-past']);
  });

  it('keeps everything under the cap, not truncated', () => {
    const kept = capFeed([booking('a', 1, 2)], [checkOut('b', 3)], NOW, 2);
    expect([kept.bookings.length, kept.checkOuts.length, kept.truncated]).toEqual([1, 1, false]);
  });
});
