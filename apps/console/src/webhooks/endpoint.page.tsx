import type { DeliveryPage, Endpoint, TestDelivery } from '@custodian/console-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { DeliveryTable } from '../shared/delivery-table';
import { formatDateTime, formatRate } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { STATE_LABEL, endpointState, receivesAll } from './endpoint-state';
import { SecretPanel } from './secret-panel';
import {
  endpointKeys,
  endpointQueries,
  useDeleteEndpoint,
  useSendTestPing,
  useUpdateEndpoint,
} from './webhooks.queries';

/** What the webhooks list shows on arrival (after a delete). */
export interface WebhooksPageNotice {
  notice: string;
}

export function EndpointPage() {
  usePageTitle('Endpoint');
  const { id = '' } = useParams();
  const endpoint = useQuery(endpointQueries.detail(id));

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/webhooks">Webhooks</Link>
      </p>
      <QueryState query={endpoint} what="the endpoint">
        {(shown) => <EndpointDetails endpoint={shown} />}
      </QueryState>
    </div>
  );
}

function EndpointDetails({ endpoint }: { endpoint: Endpoint }) {
  const { session } = useSession();
  const manage = can(session, 'webhooks.manage');
  const state = endpointState(endpoint);
  const toggling = useUpdateEndpoint();
  const testing = useSendTestPing();
  const deleting = useDeleteEndpoint();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [ping, setPing] = useState<TestDelivery | null>(null);

  function remove() {
    deleting.mutate(endpoint.id, {
      onSuccess: () => {
        const state: WebhooksPageNotice = { notice: `${endpoint.url} was deleted.` };
        void navigate('/webhooks', { state });
      },
    });
  }

  function toggle() {
    toggling.mutate({ id: endpoint.id, changes: { enabled: !endpoint.enabled } });
  }

  function test() {
    setPing(null);
    testing.mutate(endpoint.id, { onSuccess: setPing });
  }

  return (
    <>
      <div className="page-head">
        <h1 className="mono break">{endpoint.url}</h1>
        <span className={`badge badge-${state}`}>{STATE_LABEL[state]}</span>
      </div>
      {state === 'auto-disabled' && (
        <Notice tone="warning">
          Disabled automatically
          {endpoint.disabled_at ? ` on ${formatDateTime(endpoint.disabled_at)}` : ''} after{' '}
          {endpoint.consecutive_failures} failed deliveries in a row. Fix the receiver, then enable
          the endpoint, or send a test: a successful test enables it again.
        </Notice>
      )}
      {manage && (
        <div className="actions">
          <Link to={`/webhooks/${endpoint.id}/edit`} className="button">
            Edit
          </Link>
          <button type="button" onClick={toggle} disabled={toggling.isPending}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" onClick={test} disabled={testing.isPending}>
            {testing.isPending ? 'Sending…' : 'Send test ping'}
          </button>
          <button
            type="button"
            className="button-danger-quiet"
            onClick={() => {
              deleting.reset();
              setConfirming(true);
            }}
          >
            Delete
          </button>
        </div>
      )}
      <ErrorNotice error={toggling.error ?? testing.error} />
      {ping && (
        <Notice tone="success">
          Ping sent.{' '}
          <Link to={`/deliveries/${ping.delivery_id}`}>See the delivery and its attempts</Link>
        </Notice>
      )}

      <dl className="details">
        <dt>Description</dt>
        <dd>{endpoint.description ?? <span className="muted">None</span>}</dd>
        <dt>Events</dt>
        <dd>
          {receivesAll(endpoint.events) ? (
            'All events'
          ) : (
            <ul className="inline-list">
              {endpoint.events.map((key) => (
                <li key={key} className="mono">
                  {key}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Success (24 h)</dt>
        <dd>
          {endpoint.deliveries_24h === 0
            ? 'No deliveries in the last 24 hours'
            : `${formatRate(endpoint.success_rate)} of ${endpoint.deliveries_24h.toLocaleString('en')} ${
                endpoint.deliveries_24h === 1 ? 'delivery' : 'deliveries'
              }`}
        </dd>
        <dt>Failures in a row</dt>
        <dd>{endpoint.consecutive_failures}</dd>
        {endpoint.secret_rotation && (
          <>
            <dt>Secret rotation</dt>
            <dd>
              The previous secret also signs deliveries until{' '}
              {formatDateTime(endpoint.secret_rotation.previous_expires_at)}
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDateTime(endpoint.created_at)}</dd>
      </dl>

      {can(session, 'webhooks.secrets') && <SecretPanel endpointId={endpoint.id} />}
      <RecentDeliveries
        endpointId={endpoint.id}
        key={ping?.delivery_id}
        afterPing={ping !== null}
      />

      <ConfirmDialog
        open={confirming}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        danger
        busy={deleting.isPending}
        error={deleting.error}
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      >
        <p>
          Nothing more is sent to <span className="mono break">{endpoint.url}</span>, and its
          deliveries leave the delivery log. This cannot be undone: to pause it instead, disable it.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** How often, and for how long at most, the list is read again while a delivery is pending. */
const POLL_MS = 1_000;
const POLL_FOR_MS = 60_000;

const hasPending = (page: DeliveryPage | undefined) =>
  page?.data.some((delivery) => delivery.status === 'pending') ?? false;

/**
 * The endpoint's last deliveries. While one is pending (a Test ping just sent, or a retry
 * waiting) the list reads itself again every second, for a minute at most after it is shown;
 * when none is pending any more, the endpoint is invalidated (its success rate, and its state:
 * a successful ping enables an auto-disabled endpoint again).
 */
function RecentDeliveries({
  endpointId,
  afterPing,
}: {
  endpointId: string;
  /** Mounted for a ping just sent: the endpoint is refreshed once it settles, even at once. */
  afterPing: boolean;
}) {
  const client = useQueryClient();
  const [shownAt] = useState(Date.now);
  const recent = useQuery({
    ...endpointQueries.recentDeliveries(endpointId),
    refetchInterval: (query) =>
      hasPending(query.state.data) && Date.now() - shownAt < POLL_FOR_MS ? POLL_MS : false,
  });
  const loaded = recent.data !== undefined;
  const pending = hasPending(recent.data);
  // Whether the endpoint owes a refresh once nothing is pending: after a pending delivery was
  // seen, or a ping sent (it may be delivered before the first read).
  const owed = useRef(afterPing);
  useEffect(() => {
    if (!loaded) return;
    if (pending) {
      owed.current = true;
      return;
    }
    if (owed.current) {
      void client.invalidateQueries({ queryKey: endpointKeys.detail(endpointId), exact: true });
    }
    owed.current = false;
  }, [loaded, pending, client, endpointId]);
  return (
    <section aria-labelledby="recent-heading">
      <div className="page-head">
        <h2 id="recent-heading">Recent deliveries</h2>
        <Link to={`/deliveries?endpoint=${encodeURIComponent(endpointId)}`}>
          All deliveries of this endpoint
        </Link>
      </div>
      <QueryState query={recent} what="deliveries">
        {(page) => (
          <DeliveryTable
            deliveries={page.data}
            showEndpoint={false}
            caption="Recent deliveries of this endpoint"
          />
        )}
      </QueryState>
    </section>
  );
}
