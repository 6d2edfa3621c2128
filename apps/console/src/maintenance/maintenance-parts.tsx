import type { Maintenance } from '@custodian/console-client';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';
import {
  MAINTENANCE_STATUS_BADGE,
  MAINTENANCE_STATUS_LABEL,
  TYPE_LABEL,
} from './maintenance-values';

/** Records as a table: what, which asset (unless on its page), when, cost, status. */
export function MaintenanceTable({
  records,
  empty,
  showAsset,
  action,
}: {
  records: Maintenance[];
  empty: string;
  showAsset: boolean;
  /** A last cell per record (the asset page's Resolve). */
  action?: (record: Maintenance) => React.ReactNode;
}) {
  const columns = 6 + (showAsset ? 1 : 0) + (action ? 1 : 0);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Maintenance records</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            {showAsset && <th scope="col">Asset</th>}
            <th scope="col">Scheduled for</th>
            <th scope="col">Cost</th>
            <th scope="col">Logged</th>
            <th scope="col">Status</th>
            {action && (
              <th scope="col" className="visually-hidden">
                Resolve
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {records.length === 0 && (
            <tr>
              <td colSpan={columns} className="empty">
                {empty}
              </td>
            </tr>
          )}
          {records.map((record) => (
            <tr key={record.id}>
              <td>
                {record.title}
                {record.notes && <p className="hint">{record.notes}</p>}
                {record.resolution_notes && (
                  <p className="hint">Resolution: {record.resolution_notes}</p>
                )}
              </td>
              <td>{TYPE_LABEL[record.type]}</td>
              {showAsset && (
                <td>
                  <Link to={`/assets/${record.asset.id}`}>{record.asset.name}</Link>{' '}
                  <span className="muted">{record.asset.asset_tag}</span>
                </td>
              )}
              <td className="nowrap">{record.scheduled_for ?? <span className="muted">—</span>}</td>
              <td>{record.cost ?? <span className="muted">—</span>}</td>
              <td className="nowrap">{formatDateTime(record.created_at)}</td>
              <td>
                <span className={`badge ${MAINTENANCE_STATUS_BADGE[record.status]}`}>
                  {MAINTENANCE_STATUS_LABEL[record.status]}
                </span>
                {record.resolved_at && (
                  <p className="hint nowrap">{formatDateTime(record.resolved_at)}</p>
                )}
              </td>
              {action && <td>{action(record)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
