import type { Reminder } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ActivityList } from '../activity/activity-list';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime } from '../shared/format';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import {
  REMINDER_STATUS_BADGE,
  REMINDER_STATUS_LABEL,
  repeatText,
  subjectOf,
} from './reminder-values';
import { reminderQueries, useCancelReminder } from './reminders.queries';

export function ReminderPage() {
  usePageTitle('Reminder');
  const { id = '' } = useParams();
  const reminder = useQuery(reminderQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/reminders">Reminders</Link>
      </p>
      <QueryState query={reminder} what="the reminder">
        {(shown) => <ReminderDetails reminder={shown} />}
      </QueryState>
    </div>
  );
}

function ReminderDetails({ reminder }: { reminder: Reminder }) {
  const { session } = useSession();
  const manage = can(session, 'reminders.manage') && reminder.status === 'scheduled';
  const [confirming, setConfirming] = useState(false);
  const cancelling = useCancelReminder();
  const about = subjectOf(reminder);
  return (
    <>
      <div className="page-head">
        <h1>{reminder.title}</h1>
        <span className={`badge ${REMINDER_STATUS_BADGE[reminder.status]}`}>
          {REMINDER_STATUS_LABEL[reminder.status]}
        </span>
      </div>
      {manage && (
        <div className="actions">
          <Link to={`/reminders/${reminder.id}/edit`} className="button">
            Change
          </Link>
          <button
            type="button"
            className="button-danger-quiet"
            onClick={() => {
              cancelling.reset();
              setConfirming(true);
            }}
          >
            Cancel reminder
          </button>
        </div>
      )}
      <dl className="details">
        <dt>{reminder.status === 'scheduled' ? 'Next due' : 'Was due'}</dt>
        <dd>{formatDateTime(reminder.due_at)}</dd>
        <dt>Repeats</dt>
        <dd>{repeatText(reminder.repeat)}</dd>
        {reminder.next_due_at && (
          <>
            <dt>Then</dt>
            <dd>{formatDateTime(reminder.next_due_at)}</dd>
          </>
        )}
        <dt>About</dt>
        <dd>
          {about ? <Link to={about.to}>{about.name}</Link> : <span className="muted">Nothing</span>}
        </dd>
        <dt>Came due</dt>
        <dd>
          {reminder.occurrences === 0
            ? 'Not yet'
            : `${reminder.occurrences} ${reminder.occurrences === 1 ? 'time' : 'times'}, last ${formatDateTime(reminder.last_due_at)}`}
        </dd>
        {reminder.notes && (
          <>
            <dt>Notes</dt>
            <dd className="prewrap">{reminder.notes}</dd>
          </>
        )}
      </dl>
      <section className="card" aria-labelledby="reminder-history">
        <h2 id="reminder-history">History</h2>
        <ActivityList query={{ record_id: reminder.id }} showRecord={false} />
      </section>
      <ConfirmDialog
        open={confirming}
        title="Cancel this reminder?"
        confirmLabel="Cancel reminder"
        danger
        busy={cancelling.isPending}
        error={cancelling.error}
        onConfirm={() => cancelling.mutate(reminder.id, { onSuccess: () => setConfirming(false) })}
        onClose={() => setConfirming(false)}
      >
        <p>“{reminder.title}” will not come due again. It stays listed under Cancelled.</p>
      </ConfirmDialog>
    </>
  );
}
