import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { formatDateTime, formatRate, plural } from '../shared/format';
import { Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import type { WebhooksPageNotice } from './endpoint.page';
import { STATE_LABEL, endpointState } from './endpoint-state';
import { endpointQueries } from './webhooks.queries';

export function WebhooksPage() {
  usePageTitle('Webhooks');
  const { session } = useSession();
  const manage = can(session, 'webhooks.manage');
  const endpoints = useQuery(endpointQueries.list());
  const arrived = (useLocation().state as WebhooksPageNotice | null)?.notice ?? null;

  return (
    <div className="page">
      <div className="page-head">
        <h1>Webhooks</h1>
        {manage && (
          <Link to="/webhooks/new" className="button button-primary">
            Add endpoint
          </Link>
        )}
      </div>
      <p className="lead">
        Custodian sends events to these endpoints, signed with each endpoint’s secret. See{' '}
        <Link to="/deliveries">the delivery log</Link> for every attempt.
      </p>
      {arrived && <Notice tone="success">{arrived}</Notice>}
      <QueryState query={endpoints} what="endpoints">
        {(list) => (
          <>
            {list
              .filter((endpoint) => endpointState(endpoint) === 'auto-disabled')
              .map((endpoint) => (
                <Notice tone="warning" key={`notice-${endpoint.id}`}>
                  <strong>{endpoint.url}</strong> was disabled automatically
                  {endpoint.disabled_at
                    ? ` on ${formatDateTime(endpoint.disabled_at)}`
                    : ''} after{' '}
                  {plural(endpoint.consecutive_failures, 'failed delivery', 'failed deliveries')} in
                  a row; nothing is sent to it until it is enabled again.{' '}
                  <Link to={`/webhooks/${endpoint.id}`}>
                    {manage ? 'Check it and enable it' : 'See the endpoint'}
                  </Link>
                </Notice>
              ))}
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Webhook endpoints</caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">State</th>
                    <th scope="col">Events</th>
                    <th scope="col" className="num">
                      Success (24 h)
                    </th>
                    <th scope="col" className="num">
                      Deliveries (24 h)
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.length === 0 && (
                    <tr>
                      <td colSpan={5} className="empty">
                        No endpoints yet.{manage && ' Add one to receive events.'}
                      </td>
                    </tr>
                  )}
                  {list.map((endpoint) => {
                    const state = endpointState(endpoint);
                    return (
                      <tr key={endpoint.id}>
                        <td>
                          <Link to={`/webhooks/${endpoint.id}`} className="mono">
                            {endpoint.url}
                          </Link>
                          {endpoint.description && (
                            <div className="muted">{endpoint.description}</div>
                          )}
                        </td>
                        <td>
                          <span className={`badge badge-${state}`}>{STATE_LABEL[state]}</span>
                        </td>
                        <td>
                          {endpoint.events.includes('*')
                            ? 'All events'
                            : plural(endpoint.events.length, 'event', 'events')}
                        </td>
                        <td className="num">{formatRate(endpoint.success_rate)}</td>
                        <td className="num">{endpoint.deliveries_24h.toLocaleString('en')}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </>
        )}
      </QueryState>
    </div>
  );
}
