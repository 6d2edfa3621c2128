import type { BookingListQuery } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryState } from '../shared/query-state';
import { BookingsTable } from './booking-parts';
import { bookingQueries } from './bookings.queries';

const SHOWN = 10;

/**
 * The bookings of one asset or one person that end from now on, soonest first, on its page;
 * "All bookings" opens the list filtered on it.
 */
export function BookingsSection({
  assetId,
  personId,
  bookLink,
}: {
  assetId?: string;
  personId?: string;
  /** Where "Book" goes, prefilled; none when the member may not book. */
  bookLink?: string;
}) {
  // From when the section was shown, to the minute: one key for the page's life.
  const [from] = useState(() => new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString());
  const query: BookingListQuery = {
    from,
    page: '1',
    pageSize: String(SHOWN),
  };
  if (assetId) query.asset_id = assetId;
  if (personId) query.person_id = personId;
  const bookings = useQuery(bookingQueries.list(query));
  const all = new URLSearchParams(assetId ? { asset: assetId } : { person: personId ?? '' });
  return (
    <section className="card" aria-labelledby="bookings-section">
      <div className="page-head">
        <h2 id="bookings-section">Bookings</h2>
        <div className="actions">
          <Link to={`/bookings?${all.toString()}`}>All bookings</Link>
          {bookLink && (
            <Link to={bookLink} className="button button-small">
              Book
            </Link>
          )}
        </div>
      </div>
      <QueryState query={bookings} what="bookings">
        {(found) => (
          <>
            <BookingsTable
              bookings={found.data}
              empty="Nothing booked from now on."
              showPerson={!personId}
            />
            {found.total > found.data.length && (
              <p className="hint">
                The next {found.data.length} of {found.total}.
              </p>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
