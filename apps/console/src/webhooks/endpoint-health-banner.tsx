import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { formatDateTime, plural } from '../shared/format';
import { autoDisabledEndpoints } from './endpoint-state';
import { endpointQueries } from './webhooks.queries';

/** How often the banner looks again while a page stays open. */
const RECHECK_MS = 60_000;

/**
 * On every page of a workspace whose webhooks the member may see: while an endpoint is
 * disabled for its failures, a banner naming it, with a link to its page to enable it again
 * (the owners and admins also got an e-mail). It reads the endpoints list the Webhooks page
 * reads (one cache entry), so enabling an endpoint there takes the banner away, and reads it
 * again on every move to another page (one small request) and every minute on the same one, so
 * a disable shows wherever the member is. Says nothing when the list cannot be read (a plan
 * without webhooks).
 */
export function EndpointHealthBanner() {
  const { pathname } = useLocation();
  const endpoints = useQuery({
    ...endpointQueries.list(),
    refetchInterval: RECHECK_MS,
    retry: false,
  });
  const { refetch } = endpoints;
  useEffect(() => {
    void refetch();
  }, [pathname, refetch]);
  const disabled = autoDisabledEndpoints(endpoints.data ?? []);
  if (disabled.length === 0) return null;
  const one = disabled.length === 1;
  return (
    <div className="page-banner">
      <div className="notice notice-warning endpoint-health" role="alert">
        <strong>
          {one
            ? 'A webhook endpoint was disabled after failed deliveries.'
            : `${disabled.length} webhook endpoints were disabled after failed deliveries.`}
        </strong>{' '}
        {one
          ? 'Its deliveries wait until it is enabled again.'
          : 'Their deliveries wait until they are enabled again.'}
        <ul>
          {disabled.map((endpoint) => (
            <li key={endpoint.id}>
              <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>: disabled{' '}
              {formatDateTime(endpoint.disabled_at)} after{' '}
              {plural(endpoint.consecutive_failures, 'failed delivery', 'failed deliveries')} in a
              row
            </li>
          ))}
        </ul>
        Fix the receiver, then enable it on its page (a delivered Test ping enables it too), or see
        all endpoints in <Link to="/webhooks">Webhooks</Link>.
      </div>
    </div>
  );
}
