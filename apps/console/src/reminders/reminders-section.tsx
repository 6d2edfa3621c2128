import type { ReminderListQuery } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { RemindersTable } from './reminders-table';
import { reminderQueries } from './reminders.queries';

/** The reminders about one record (an asset, a licence), with a link to add one. */
export function RemindersSection({ about }: { about: { asset: string } | { license: string } }) {
  const { session } = useSession();
  const query: ReminderListQuery =
    'asset' in about
      ? { asset_id: about.asset, pageSize: '20' }
      : { license_id: about.license, pageSize: '20' };
  const reminders = useQuery(reminderQueries.list(query));
  const add = 'asset' in about ? `asset=${about.asset}` : `license=${about.license}`;
  return (
    <section className="card" aria-labelledby="reminders-section">
      <div className="page-head">
        <h2 id="reminders-section">Reminders</h2>
        {can(session, 'reminders.manage') && (
          <Link to={`/reminders/new?${add}`} className="button">
            Add reminder
          </Link>
        )}
      </div>
      <QueryState query={reminders} what="reminders">
        {(found) => (
          <RemindersTable reminders={found.data} empty="No reminders." showSubject={false} />
        )}
      </QueryState>
    </section>
  );
}
