import type { Booking, BookingChanges } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ActivityList } from '../activity/activity-list';
import { Dialog } from '../shared/dialog';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import {
  type BookingPageNotice,
  BookingAssets,
  BookingStatusBadge,
  CreateFailure,
} from './booking-parts';
import {
  bookingButtons,
  fromLocalInput,
  movableDates,
  statusLabel,
  toLocalInput,
} from './booking-values';
import { type BookingAction, bookingQueries, useBookingAction } from './bookings.queries';

export function BookingPage() {
  usePageTitle('Booking');
  const { id = '' } = useParams();
  const location = useLocation();
  const arrived = (location.state as BookingPageNotice | null)?.notice ?? null;
  const booking = useQuery(bookingQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/bookings">Bookings</Link>
      </p>
      {arrived && <Notice tone="success">{arrived}</Notice>}
      <QueryState query={booking} what="the booking">
        {(shown) => <BookingDetails booking={shown} />}
      </QueryState>
    </div>
  );
}

type Opened = 'reject' | 'cancel' | 'check-in' | 'edit' | null;

/** What each transition says once done. */
const DONE: Record<BookingAction['kind'], string> = {
  confirm: 'Booking confirmed.',
  reject: 'Booking rejected: its slot is free again.',
  cancel: 'Booking cancelled: its slot is free again.',
  'check-out': 'Checked out: each asset is with the person, due back at the end.',
  'check-in': 'Checked in.',
  move: 'Booking changed.',
};

function BookingDetails({ booking }: { booking: Booking }) {
  const { session } = useSession();
  const rights = {
    request: can(session, 'bookings.request'),
    manage: can(session, 'bookings.manage'),
  };
  const buttons = bookingButtons(booking, rights);
  const acting = useBookingAction(booking.id);
  const [opened, setOpened] = useState<Opened>(null);
  const [done, setDone] = useState<string | null>(null);

  function act(action: BookingAction) {
    setDone(null);
    acting.mutate(action, {
      onSuccess: (after) => {
        setOpened(null);
        setDone(
          action.kind === 'check-in' && after.status === 'completed'
            ? 'Checked in: every asset is back and the booking is completed.'
            : DONE[action.kind],
        );
      },
    });
  }
  function open(which: Opened) {
    acting.reset();
    setDone(null);
    setOpened(which);
  }

  const out = booking.assets.filter((asset) => asset.returned_at === null);
  return (
    <>
      {done && <Notice tone="success">{done}</Notice>}
      <div className="page-head">
        <h1>
          Booking for <Link to={`/people/${booking.person.id}`}>{booking.person.name}</Link>
        </h1>
        <BookingStatusBadge booking={booking} />
      </div>
      {buttons.length > 0 && (
        <div className="actions">
          {buttons.includes('confirm') && (
            <button
              type="button"
              className="button-primary"
              disabled={acting.isPending}
              onClick={() => act({ kind: 'confirm' })}
            >
              Confirm
            </button>
          )}
          {buttons.includes('reject') && (
            <button type="button" className="button-danger-quiet" onClick={() => open('reject')}>
              Reject
            </button>
          )}
          {buttons.includes('check-out') && (
            <button
              type="button"
              className="button-primary"
              disabled={acting.isPending}
              onClick={() => act({ kind: 'check-out' })}
            >
              Check out
            </button>
          )}
          {buttons.includes('check-in') && (
            <button type="button" className="button-primary" onClick={() => open('check-in')}>
              Check in
            </button>
          )}
          {buttons.includes('edit') && (
            <button type="button" onClick={() => open('edit')}>
              Edit dates
            </button>
          )}
          {buttons.includes('cancel') && (
            <button type="button" className="button-danger-quiet" onClick={() => open('cancel')}>
              Cancel booking
            </button>
          )}
        </div>
      )}
      {opened === null && <CreateFailure error={acting.error} />}

      <dl className="details">
        <dt>Status</dt>
        <dd>{statusLabel(booking)}</dd>
        <dt>From</dt>
        <dd>{formatDateTime(booking.starts_at)}</dd>
        <dt>Until</dt>
        <dd>{formatDateTime(booking.ends_at)}</dd>
        <dt>Assets</dt>
        <dd>
          <BookingAssets booking={booking} />
        </dd>
        <dt>For</dt>
        <dd>
          <Link to={`/people/${booking.person.id}`}>{booking.person.name}</Link>
        </dd>
        <dt>Notes</dt>
        <dd>{booking.notes ?? <span className="muted">None</span>}</dd>
        {booking.checked_out_at && (
          <>
            <dt>Checked out</dt>
            <dd>{formatDateTime(booking.checked_out_at)}</dd>
          </>
        )}
        {booking.checked_out_at && (
          <>
            <dt>Returned</dt>
            <dd>
              <ul className="inline-list">
                {booking.assets.map((asset) => (
                  <li key={asset.id}>
                    {asset.name}: {formatDateTime(asset.returned_at, 'still out')}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {booking.completed_at && (
          <>
            <dt>Completed</dt>
            <dd>{formatDateTime(booking.completed_at)}</dd>
          </>
        )}
        {booking.cancellation && (
          <>
            <dt>{booking.cancellation.reason === 'rejected' ? 'Rejected' : 'Cancelled'}</dt>
            <dd>
              {formatDateTime(booking.cancellation.at)}
              {booking.cancellation.note && <>: “{booking.cancellation.note}”</>}
            </dd>
          </>
        )}
        <dt>Made</dt>
        <dd>{formatDateTime(booking.created_at)}</dd>
      </dl>

      <section className="card" aria-labelledby="booking-history">
        <h2 id="booking-history">History</h2>
        <ActivityList query={{ record_id: booking.id }} showRecord={false} />
      </section>

      <Dialog
        open={opened === 'reject'}
        title="Reject this booking?"
        onClose={() => setOpened(null)}
      >
        <NoteForm
          label="Why (the person who asked sees it)"
          required
          submitLabel="Reject"
          busy={acting.isPending}
          error={acting.error}
          onSubmit={(note) => act({ kind: 'reject', note })}
          onClose={() => setOpened(null)}
        />
      </Dialog>
      <Dialog
        open={opened === 'cancel'}
        title="Cancel this booking?"
        onClose={() => setOpened(null)}
      >
        <p>Its assets are free for others at once.</p>
        <NoteForm
          label="Why (optional)"
          required={false}
          submitLabel="Cancel booking"
          busy={acting.isPending}
          error={acting.error}
          onSubmit={(note) => act({ kind: 'cancel', note: note || null })}
          onClose={() => setOpened(null)}
        />
      </Dialog>
      <Dialog open={opened === 'check-in'} title="Check in" onClose={() => setOpened(null)}>
        <CheckInForm
          assets={out}
          busy={acting.isPending}
          error={acting.error}
          onSubmit={(ids) =>
            act({ kind: 'check-in', assetIds: ids.length === out.length ? null : ids })
          }
          onClose={() => setOpened(null)}
        />
      </Dialog>
      <Dialog open={opened === 'edit'} title="Change the dates" onClose={() => setOpened(null)}>
        <DatesForm
          booking={booking}
          busy={acting.isPending}
          error={acting.error}
          onSubmit={(changes) => act({ kind: 'move', changes })}
          onClose={() => setOpened(null)}
        />
      </Dialog>
    </>
  );
}

interface FormProps<T> {
  busy: boolean;
  error: unknown;
  onSubmit: (value: T) => void;
  onClose: () => void;
}

function NoteForm({
  label,
  required,
  submitLabel,
  busy,
  error,
  onSubmit,
  onClose,
}: FormProps<string> & { label: string; required: boolean; submitLabel: string }) {
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (required && note.trim() === '') {
      setProblem('Say why.');
      return;
    }
    onSubmit(note.trim());
  }
  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor="booking-note">{label}</label>
        <textarea
          id="booking-note"
          rows={3}
          maxLength={500}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        {problem && <p className="field-error">{problem}</p>}
      </div>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Back
        </button>
        <button type="submit" className="button-danger" disabled={busy}>
          {busy ? 'Working…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

function CheckInForm({
  assets,
  busy,
  error,
  onSubmit,
  onClose,
}: FormProps<string[]> & { assets: Booking['assets'] }) {
  const [chosen, setChosen] = useState<string[]>(() => assets.map((asset) => asset.id));
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(chosen);
  }
  return (
    <form onSubmit={submit}>
      <p>The assets that came back; the last one back completes the booking.</p>
      <ul className="check-list">
        {assets.map((asset) => (
          <li key={asset.id}>
            <label className="inline">
              <input
                type="checkbox"
                checked={chosen.includes(asset.id)}
                onChange={(event) =>
                  setChosen(
                    event.target.checked
                      ? [...chosen, asset.id]
                      : chosen.filter((id) => id !== asset.id),
                  )
                }
              />
              {asset.name} <span className="muted mono small">{asset.asset_tag}</span>
            </label>
          </li>
        ))}
      </ul>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Back
        </button>
        <button type="submit" className="button-primary" disabled={busy || chosen.length === 0}>
          {busy
            ? 'Working…'
            : chosen.length === assets.length
              ? 'Check in all'
              : `Check in ${chosen.length}`}
        </button>
      </div>
    </form>
  );
}

function DatesForm({
  booking,
  busy,
  error,
  onSubmit,
  onClose,
}: FormProps<BookingChanges> & { booking: Booking }) {
  const movable = movableDates(booking.status);
  const [startsAt, setStartsAt] = useState(toLocalInput(booking.starts_at));
  const [endsAt, setEndsAt] = useState(toLocalInput(booking.ends_at));
  const [problem, setProblem] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const starts = fromLocalInput(startsAt);
    const ends = fromLocalInput(endsAt);
    if (!starts || !ends) {
      setProblem('Give both dates, with their times.');
      return;
    }
    if (ends <= starts) {
      setProblem('The end must be after the start.');
      return;
    }
    const changes: BookingChanges = {};
    if (movable === 'both' && starts !== new Date(booking.starts_at).toISOString()) {
      changes.starts_at = starts;
    }
    if (ends !== new Date(booking.ends_at).toISOString()) changes.ends_at = ends;
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    onSubmit(changes);
  }
  return (
    <form onSubmit={submit}>
      {movable === 'end' && (
        <p>Its assets are out: only the end moves (each asset’s due date follows).</p>
      )}
      <div className="field">
        <label htmlFor="edit-starts-at">From</label>
        <input
          id="edit-starts-at"
          type="datetime-local"
          value={startsAt}
          disabled={movable !== 'both'}
          onChange={(event) => setStartsAt(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="edit-ends-at">Until</label>
        <input
          id="edit-ends-at"
          type="datetime-local"
          value={endsAt}
          onChange={(event) => setEndsAt(event.target.value)}
        />
      </div>
      {problem && <p className="field-error">{problem}</p>}
      <CreateFailure error={error} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Back
        </button>
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save dates'}
        </button>
      </div>
    </form>
  );
}
