import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { assetQueries } from '../assets/assets.queries';
import { licenseQueries } from '../licenses/licenses.queries';
import { maintenanceQueries } from '../maintenance/maintenance.queries';
import { reminderQueries } from '../reminders/reminders.queries';
import { subjectOf } from '../reminders/reminder-values';
import { ExpiryBadge } from '../shared/expiry-badge';
import { formatDateTime } from '../shared/format';
import { can } from '../shared/permissions';
import { useSession } from '../shared/session';

const DAY_MS = 86_400_000;
/** How far ahead the panel looks: the first expiry notice (30 days), a week of reminders. */
const EXPIRY_DAYS = 30;
const REMINDER_DAYS = 7;
const SHOWN = 5;

/** `YYYY-MM-DD` of the day `days` from `now` (UTC, as expiry dates are counted). */
export function dayFrom(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The overview's "Due soon": warranties and licences ending within 30 days (or ended), the
 * reminders due this week, the maintenance still open; each list the few soonest and a link to
 * the rest. Only what the member's role may see.
 */
export function DueSoon() {
  const { session } = useSession();
  const [now] = useState(() => new Date());
  const until = dayFrom(now, EXPIRY_DAYS + 1);
  const assetsShown = can(session, 'assets.view');
  const licencesShown = can(session, 'licenses.view');
  const remindersShown = can(session, 'reminders.view');
  const maintenanceShown = can(session, 'maintenance.view');
  const warranties = useQuery({
    ...assetQueries.list({ page: 1, pageSize: SHOWN, warranty_expires_before: until }),
    enabled: assetsShown,
  });
  const licences = useQuery({
    ...licenseQueries.list({
      page: '1',
      pageSize: String(SHOWN),
      expires_before: dayFrom(now, EXPIRY_DAYS),
    }),
    enabled: licencesShown,
  });
  const reminders = useQuery({
    ...reminderQueries.list({
      status: 'scheduled',
      due_before: new Date(now.getTime() + REMINDER_DAYS * DAY_MS).toISOString(),
      pageSize: String(SHOWN),
    }),
    enabled: remindersShown,
  });
  const openMaintenance = useQuery({
    ...maintenanceQueries.list({ status: 'open', pageSize: String(SHOWN) }),
    enabled: maintenanceShown,
  });
  if (!assetsShown && !licencesShown && !remindersShown && !maintenanceShown) return null;
  return (
    <section className="card due-soon" aria-labelledby="due-soon">
      <h2 id="due-soon">Due soon</h2>
      <div className="due-soon-columns">
        {assetsShown && (
          <section aria-labelledby="due-warranties">
            <h3 id="due-warranties">Warranties ending</h3>
            {warranties.data?.data.length === 0 && <p className="muted">None in 30 days.</p>}
            <ul className="plain-list">
              {warranties.data?.data.map((asset) => (
                <li key={asset.id}>
                  <Link to={`/assets/${asset.id}`}>{asset.name}</Link>
                </li>
              ))}
            </ul>
            {(warranties.data?.total ?? 0) > SHOWN && (
              <p className="hint">and {(warranties.data?.total ?? 0) - SHOWN} more</p>
            )}
          </section>
        )}
        {licencesShown && (
          <section aria-labelledby="due-licences">
            <h3 id="due-licences">Licences ending</h3>
            {licences.data?.data.length === 0 && <p className="muted">None in 30 days.</p>}
            <ul className="plain-list">
              {licences.data?.data.map((license) => (
                <li key={license.id}>
                  <Link to={`/licenses/${license.id}`}>{license.name}</Link>{' '}
                  <ExpiryBadge expiresOn={license.expires_on} />
                </li>
              ))}
            </ul>
            {(licences.data?.total ?? 0) > SHOWN && (
              <p className="hint">
                <Link to="/licenses">All licences</Link>
              </p>
            )}
          </section>
        )}
        {remindersShown && (
          <section aria-labelledby="due-reminders">
            <h3 id="due-reminders">Reminders this week</h3>
            {reminders.data?.data.length === 0 && <p className="muted">Nothing due.</p>}
            <ul className="plain-list">
              {reminders.data?.data.map((reminder) => {
                const about = subjectOf(reminder);
                return (
                  <li key={reminder.id}>
                    <Link to={`/reminders/${reminder.id}`}>{reminder.title}</Link>
                    {about && <span className="muted"> · {about.name}</span>}{' '}
                    <span className="nowrap">{formatDateTime(reminder.due_at)}</span>
                  </li>
                );
              })}
            </ul>
            {(reminders.data?.total ?? 0) > SHOWN && (
              <p className="hint">
                <Link to="/reminders?status=scheduled">All reminders</Link>
              </p>
            )}
          </section>
        )}
        {maintenanceShown && (
          <section aria-labelledby="due-maintenance">
            <h3 id="due-maintenance">Open maintenance</h3>
            {openMaintenance.data?.data.length === 0 && <p className="muted">Nothing open.</p>}
            <ul className="plain-list">
              {openMaintenance.data?.data.map((record) => (
                <li key={record.id}>
                  <Link to={`/assets/${record.asset.id}`}>{record.asset.name}</Link>
                  <span className="muted"> · {record.title}</span>
                </li>
              ))}
            </ul>
            {(openMaintenance.data?.total ?? 0) > SHOWN && (
              <p className="hint">
                <Link to="/maintenance">All open maintenance</Link>
              </p>
            )}
          </section>
        )}
      </div>
    </section>
  );
}
