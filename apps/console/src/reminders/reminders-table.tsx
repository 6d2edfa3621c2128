import type { Reminder } from '@custodian/console-client';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';
import {
  REMINDER_STATUS_BADGE,
  REMINDER_STATUS_LABEL,
  repeatText,
  subjectOf,
} from './reminder-values';

/** Reminders as rows: what, about what, when next, how often, status. */
export function RemindersTable({
  reminders,
  empty,
  showSubject = true,
}: {
  reminders: Reminder[];
  empty: string;
  showSubject?: boolean;
}) {
  const columns = showSubject ? 5 : 4;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Reminders</caption>
        <thead>
          <tr>
            <th scope="col">Reminder</th>
            {showSubject && <th scope="col">About</th>}
            <th scope="col">Due</th>
            <th scope="col">Repeats</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {reminders.length === 0 && (
            <tr>
              <td colSpan={columns} className="empty">
                {empty}
              </td>
            </tr>
          )}
          {reminders.map((reminder) => {
            const about = subjectOf(reminder);
            return (
              <tr key={reminder.id}>
                <td>
                  <Link to={`/reminders/${reminder.id}`}>{reminder.title}</Link>
                </td>
                {showSubject && (
                  <td>
                    {about ? (
                      <Link to={about.to}>{about.name}</Link>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                )}
                <td className="nowrap">{formatDateTime(reminder.due_at)}</td>
                <td>{repeatText(reminder.repeat)}</td>
                <td>
                  <span className={`badge ${REMINDER_STATUS_BADGE[reminder.status]}`}>
                    {REMINDER_STATUS_LABEL[reminder.status]}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
