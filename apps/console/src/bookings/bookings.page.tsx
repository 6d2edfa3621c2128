import type { BookingStatus } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { BookingSettingsCard } from './booking-settings-card';
import { BookingsTable } from './booking-parts';
import { type BookingView, paramsFromView, queryOfView, viewFromParams } from './booking-filters';
import { BOOKING_STATUSES, BOOKING_STATUS_LABEL } from './booking-values';
import { bookingQueries } from './bookings.queries';

const PAGE_SIZE = 50;

export function BookingsPage() {
  usePageTitle('Bookings');
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params);
  const bookings = useQuery(bookingQueries.list(queryOfView(view, PAGE_SIZE)));
  const people = useQuery(bookingQueries.people(''));
  const assets = useQuery(bookingQueries.assets(''));
  const [draft, setDraft] = useState<BookingView>(view);
  const show = (next: BookingView) => setParams(paramsFromView(next));

  function submit(event: FormEvent) {
    event.preventDefault();
    show({ ...draft, page: 1 });
  }

  const filtered =
    view.status !== null || view.person !== '' || view.asset !== '' || view.from || view.to;
  const personChoices = people.data?.data ?? [];
  const assetChoices = assets.data?.data ?? [];

  return (
    <div className="page">
      <div className="page-head">
        <h1>Bookings</h1>
        <div className="actions">
          <Link to="/calendar" className="button">
            Calendar
          </Link>
          {can(session, 'bookings.request') && (
            <Link to="/bookings/new" className="button button-primary">
              New booking
            </Link>
          )}
        </div>
      </div>
      <p className="lead">
        Assets held for a person over a stretch of time, from request to return.
      </p>
      <form className="filters filters-bookings" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="bookings-status">Status</label>
          <select
            id="bookings-status"
            value={draft.status ?? ''}
            onChange={(event) =>
              setDraft({ ...draft, status: (event.target.value || null) as BookingStatus | null })
            }
          >
            <option value="">Any</option>
            {BOOKING_STATUSES.map((value) => (
              <option key={value} value={value}>
                {BOOKING_STATUS_LABEL[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="bookings-person">Person</label>
          <select
            id="bookings-person"
            value={draft.person}
            onChange={(event) => setDraft({ ...draft, person: event.target.value })}
          >
            <option value="">Anyone</option>
            {draft.person && !personChoices.some((person) => person.id === draft.person) && (
              <option value={draft.person}>{draft.person}</option>
            )}
            {personChoices.map((person) => (
              <option key={person.id} value={person.id}>
                {person.full_name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="bookings-asset">Asset</label>
          <select
            id="bookings-asset"
            value={draft.asset}
            onChange={(event) => setDraft({ ...draft, asset: event.target.value })}
          >
            <option value="">Any</option>
            {draft.asset && !assetChoices.some((asset) => asset.id === draft.asset) && (
              <option value={draft.asset}>{draft.asset}</option>
            )}
            {assetChoices.map((asset) => (
              <option key={asset.id} value={asset.id}>
                {asset.name}
                {asset.serial_number ? ` (${asset.serial_number})` : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="bookings-from">From</label>
          <input
            id="bookings-from"
            type="date"
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="bookings-to">To</label>
          <input
            id="bookings-to"
            type="date"
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </div>
        <div className="field field-button">
          <button type="submit">Show</button>
        </div>
      </form>
      {filtered && (
        <p>
          <Link
            to="/bookings"
            onClick={() =>
              setDraft({ status: null, person: '', asset: '', from: '', to: '', page: 1 })
            }
          >
            Clear the filters
          </Link>
        </p>
      )}
      <QueryState query={bookings} what="bookings">
        {(found) => (
          <>
            <BookingsTable
              bookings={found.data}
              empty={filtered ? 'No booking matches.' : 'No bookings yet.'}
            />
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['booking', 'bookings']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
      <BookingSettingsCard />
    </div>
  );
}
