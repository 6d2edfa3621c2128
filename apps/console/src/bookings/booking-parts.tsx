import type { Booking, BookingStatus } from '@custodian/console-client';
import { Link } from 'react-router';
import { ApiFailure } from '../api/failure';
import { formatDateTime } from '../shared/format';
import { ErrorNotice } from '../shared/notices';
import { parseConflicts, statusLabel } from './booking-values';

/** A booking's status as a badge ("Rejected" for a cancelled booking a manager refused). */
export function BookingStatusBadge({
  booking,
}: {
  booking: Pick<Booking, 'status' | 'cancellation'>;
}) {
  return <span className={`badge badge-booking-${booking.status}`}>{statusLabel(booking)}</span>;
}

/** "Camera (CAM-1), Tripod (TRI-1)": a booking's assets, each a link. */
export function BookingAssets({ booking }: { booking: Booking }) {
  return (
    <>
      {booking.assets.map((asset, index) => (
        <span key={asset.id}>
          {index > 0 && ', '}
          <Link to={`/assets/${asset.id}`}>{asset.name}</Link>
          {asset.asset_tag && <span className="muted mono small"> {asset.asset_tag}</span>}
        </span>
      ))}
    </>
  );
}

/** A table of bookings: when, status, assets, person. */
export function BookingsTable({
  bookings,
  empty,
  showPerson = true,
}: {
  bookings: readonly Booking[];
  empty: string;
  showPerson?: boolean;
}) {
  const closed: readonly BookingStatus[] = ['cancelled', 'completed', 'no_show'];
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Bookings</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">Until</th>
            <th scope="col">Status</th>
            <th scope="col">Assets</th>
            {showPerson && <th scope="col">For</th>}
          </tr>
        </thead>
        <tbody>
          {bookings.length === 0 && (
            <tr>
              <td colSpan={showPerson ? 5 : 4} className="empty">
                {empty}
              </td>
            </tr>
          )}
          {bookings.map((booking) => (
            <tr key={booking.id} className={closed.includes(booking.status) ? 'row-muted' : ''}>
              <td className="nowrap">
                <Link to={`/bookings/${booking.id}`}>{formatDateTime(booking.starts_at)}</Link>
              </td>
              <td className="nowrap">{formatDateTime(booking.ends_at)}</td>
              <td>
                <BookingStatusBadge booking={booking} />
              </td>
              <td>
                <BookingAssets booking={booking} />
              </td>
              {showPerson && (
                <td>
                  <Link to={`/people/${booking.person.id}`}>{booking.person.name}</Link>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the booking page says when the form sent a person there. */
export interface BookingPageNotice {
  notice?: string;
}

/** A 409 naming the bookings in the way, one line each; any other failure as usual. */
export function CreateFailure({ error }: { error: unknown }) {
  if (!(error instanceof ApiFailure) || error.status !== 409) return <ErrorNotice error={error} />;
  const { lead, conflicts, more } = parseConflicts(error.message);
  if (conflicts.length === 0) return <ErrorNotice error={error} />;
  return (
    <div className="notice notice-error" role="alert">
      <p>
        {lead
          ? `${lead}: the assets are booked in between:`
          : 'The assets are already booked then:'}
      </p>
      <ul className="conflicts">
        {conflicts.map((conflict) => (
          <li key={`${conflict.bookingId}-${conflict.assetId}`}>
            <strong>{conflict.assetName}</strong> is held from {formatDateTime(conflict.from)} to{' '}
            {formatDateTime(conflict.to)} by booking{' '}
            <Link to={`/bookings/${conflict.bookingId}`} className="mono">
              {conflict.bookingId}
            </Link>
          </li>
        ))}
        {more > 0 && <li>and {more} more</li>}
      </ul>
    </div>
  );
}
