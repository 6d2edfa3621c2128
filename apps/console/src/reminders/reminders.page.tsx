import type { Reminder, ReminderListQuery } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type ListView, useListView } from '../shared/list-view';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { REMINDER_STATUSES, REMINDER_STATUS_LABEL, isReminderStatus } from './reminder-values';
import { RemindersTable } from './reminders-table';
import { reminderQueries } from './reminders.queries';

const PAGE_SIZE = 50;

function listQuery(view: ListView<Reminder['status']>): ReminderListQuery {
  const query: ReminderListQuery = { page: String(view.page), pageSize: String(PAGE_SIZE) };
  if (view.status) query.status = view.status;
  return query;
}

/** Reminders, soonest first: the scheduled and done ones, or one status. */
export function RemindersPage() {
  usePageTitle('Reminders');
  const { session } = useSession();
  const [view, show] = useListView(isReminderStatus);
  const reminders = useQuery(reminderQueries.list(listQuery(view)));

  return (
    <div className="page">
      <div className="page-head">
        <h1>Reminders</h1>
        {can(session, 'reminders.manage') && (
          <div className="actions">
            <Link to="/reminders/new" className="button button-primary">
              Add reminder
            </Link>
          </div>
        )}
      </div>
      <p className="lead">
        What to do and when: once, or every so many days, weeks or months. Each time one comes due,{' '}
        <span className="mono">reminder.due</span> goes to your webhooks.
      </p>
      <nav className="tabs" aria-label="Reminder status">
        <Link to="/reminders" aria-current={view.status === null ? 'page' : undefined}>
          All
        </Link>
        {REMINDER_STATUSES.map((status) => (
          <Link
            key={status}
            to={`/reminders?status=${status}`}
            aria-current={view.status === status ? 'page' : undefined}
          >
            {REMINDER_STATUS_LABEL[status]}
          </Link>
        ))}
      </nav>
      <QueryState query={reminders} what="reminders">
        {(found) => (
          <>
            <RemindersTable reminders={found.data} empty="No reminders here." />
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['reminder', 'reminders']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
