import type { AssetRequestListQuery, AssetRequestStatus } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';
import { type ListView, useListView } from '../shared/list-view';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import {
  REQUEST_STATUSES,
  REQUEST_STATUS_BADGE,
  REQUEST_STATUS_LABEL,
  isRequestStatus,
  requestSubject,
} from './request-values';
import { requestQueries } from './requests.queries';

const PAGE_SIZE = 50;

function listQuery(view: ListView<AssetRequestStatus>): AssetRequestListQuery {
  const query: AssetRequestListQuery = { page: view.page, pageSize: PAGE_SIZE };
  if (view.status) query.status = view.status;
  return query;
}

/**
 * Asset requests: a manager's inbox (every request, pending first shown by the filter), a
 * member's own requests. The register decides who sees what; the page only words it.
 */
export function RequestsPage() {
  usePageTitle('Requests');
  const { session } = useSession();
  const decides = can(session, 'requests.decide');
  const [view, show] = useListView(isRequestStatus);
  const requests = useQuery(requestQueries.list(listQuery(view)));

  return (
    <div className="page">
      <div className="page-head">
        <h1>Requests</h1>
        <div className="actions">
          <Link to="/requests/new" className="button button-primary">
            Ask for an asset
          </Link>
        </div>
      </div>
      <p className="lead">
        {decides
          ? 'What people asked for. Approve with the asset given, checked out now or booked, or reject with a reason.'
          : 'What you asked for, and what a manager decided.'}
      </p>
      <nav className="tabs" aria-label="Request status">
        <Link to="/requests" aria-current={view.status === null ? 'page' : undefined}>
          All
        </Link>
        {REQUEST_STATUSES.map((status) => (
          <Link
            key={status}
            to={`/requests?status=${status}`}
            aria-current={view.status === status ? 'page' : undefined}
          >
            {REQUEST_STATUS_LABEL[status]}
          </Link>
        ))}
      </nav>
      <QueryState query={requests} what="requests">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Requests</caption>
                <thead>
                  <tr>
                    <th scope="col">Asked for</th>
                    <th scope="col">For</th>
                    <th scope="col">When</th>
                    <th scope="col">Status</th>
                    <th scope="col">Asked</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={5} className="empty">
                        {view.status === 'pending'
                          ? 'Nothing waits for a decision.'
                          : 'No requests yet.'}
                      </td>
                    </tr>
                  )}
                  {found.data.map((request) => (
                    <tr key={request.id}>
                      <td>
                        <Link to={`/requests/${request.id}`}>{requestSubject(request)}</Link>
                      </td>
                      <td>{request.person.name}</td>
                      <td className="nowrap">
                        {request.starts_at && request.ends_at
                          ? `${formatDateTime(request.starts_at)} – ${formatDateTime(request.ends_at)}`
                          : 'Now'}
                      </td>
                      <td>
                        <span className={`badge ${REQUEST_STATUS_BADGE[request.status]}`}>
                          {REQUEST_STATUS_LABEL[request.status]}
                        </span>
                      </td>
                      <td className="nowrap">{formatDateTime(request.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['request', 'requests']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
