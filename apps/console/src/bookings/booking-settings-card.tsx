import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { bookingQueries, useSaveBookingSettings } from './bookings.queries';

const GRACE_MAX = 7 * 24 * 60;

/**
 * The workspace's booking settings: whether members' bookings wait for a manager, and how long
 * after its start a booking not picked up is a no-show. Everyone sees them (members learn that
 * their bookings will be requested); bookings.manage changes them.
 */
export function BookingSettingsCard() {
  const { session } = useSession();
  const settings = useQuery(bookingQueries.settings());
  const manage = can(session, 'bookings.manage');
  return (
    <section className="card" aria-labelledby="booking-settings">
      <h2 id="booking-settings">Booking settings</h2>
      <QueryState query={settings} what="the booking settings">
        {(shown) =>
          manage ? (
            <SettingsForm
              approval={shown.approval_required}
              grace={shown.no_show_grace_minutes}
              key={shown.updated_at ?? 'defaults'}
            />
          ) : (
            <p>
              {shown.approval_required
                ? 'Bookings by members wait for a manager to confirm them.'
                : 'Bookings are confirmed as soon as they are made.'}{' '}
              A booking not picked up {shown.no_show_grace_minutes} minutes after its start is a
              no-show.
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

function SettingsForm({ approval, grace }: { approval: boolean; grace: number }) {
  const [approvalRequired, setApprovalRequired] = useState(approval);
  const [graceText, setGraceText] = useState(String(grace));
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const saving = useSaveBookingSettings();

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const minutes = Number(graceText);
    if (!/^\d+$/.test(graceText.trim()) || minutes > GRACE_MAX) {
      setProblem(`The grace is a number of minutes from 0 to ${GRACE_MAX} (a week).`);
      return;
    }
    saving.mutate(
      { approval_required: approvalRequired, no_show_grace_minutes: minutes },
      { onSuccess: () => setSaved(true) },
    );
  }

  return (
    <form onSubmit={submit} aria-label="Booking settings">
      <div className="field">
        <label className="inline">
          <input
            type="checkbox"
            checked={approvalRequired}
            onChange={(event) => {
              setSaved(false);
              setApprovalRequired(event.target.checked);
            }}
          />
          Bookings by members need approval
        </label>
        <p className="hint">
          A member’s booking is <em>requested</em> and holds its slot until an owner, admin or
          manager confirms or rejects it. Applies to bookings made from now on.
        </p>
      </div>
      <div className="field">
        <label htmlFor="no-show-grace">No-show after (minutes)</label>
        <input
          id="no-show-grace"
          type="number"
          min={0}
          max={GRACE_MAX}
          value={graceText}
          onChange={(event) => {
            setSaved(false);
            setGraceText(event.target.value);
          }}
        />
        <p className="hint">
          A booking not checked out this long after its start frees its assets. Applies to bookings
          made or moved from now on.
        </p>
      </div>
      {problem && <p className="notice notice-error">{problem}</p>}
      <ErrorNotice error={saving.error} />
      {saved && <Notice tone="success">Booking settings saved.</Notice>}
      <div className="actions">
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}
