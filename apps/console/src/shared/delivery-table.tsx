// A delivery log table, on the log itself and under each webhook endpoint (webhooks/).
import type { DeliveryStatus, DeliverySummary } from '@custodian/console-client';
import { Link } from 'react-router';
import { formatDateTime } from './format';

const STATUS_LABEL: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

export function StatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABEL[status]}</span>;
}

/** The last answer of a delivery in a few words: the status code, else the error kind. */
export function lastOutcome(delivery: DeliverySummary): string {
  if (delivery.last_status_code !== null) return `HTTP ${delivery.last_status_code}`;
  return delivery.last_error ?? '—';
}

export function DeliveryTable({
  deliveries,
  showEndpoint,
  caption,
}: {
  deliveries: DeliverySummary[];
  showEndpoint: boolean;
  caption: string;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Event</th>
            {showEndpoint && <th scope="col">Endpoint</th>}
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Last answer</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.length === 0 && (
            <tr>
              <td colSpan={showEndpoint ? 6 : 5} className="empty">
                No deliveries.
              </td>
            </tr>
          )}
          {deliveries.map((delivery) => (
            <tr key={delivery.delivery_id}>
              <td className="nowrap">
                <Link to={`/deliveries/${delivery.delivery_id}`}>
                  {formatDateTime(delivery.created_at)}
                </Link>
              </td>
              <td className="mono">{delivery.event}</td>
              {showEndpoint && (
                <td className="mono truncate" title={delivery.endpoint_url}>
                  {delivery.endpoint_url}
                </td>
              )}
              <td>
                <StatusBadge status={delivery.status} />
              </td>
              <td className="num">{delivery.attempts}</td>
              <td>{lastOutcome(delivery)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
