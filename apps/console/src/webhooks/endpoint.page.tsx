import type { Endpoint, TestDelivery } from '@custodian/console-client';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { listDeliveries } from '../api/deliveries.api';
import { getEndpoint, sendTestPing, updateEndpoint } from '../api/webhooks.api';
import { useSession } from '../app/session-context';
import { DeliveryTable } from '../deliveries/delivery-table';
import { formatDateTime, formatRate } from '../shared/format';
import { ErrorNotice, Loading, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { STATE_LABEL, endpointState, receivesAll } from './endpoint-state';
import { SecretPanel } from './secret-panel';

export function EndpointPage() {
  usePageTitle('Endpoint');
  const { id = '' } = useParams();
  const [endpoint, { update, reload }] = useLoad(() => getEndpoint(id), [id]);

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/webhooks">Webhooks</Link>
      </p>
      {endpoint.status === 'loading' && <Loading what="the endpoint" />}
      {endpoint.status === 'failed' && <ErrorNotice error={endpoint.error} />}
      {endpoint.status === 'ready' && (
        <EndpointDetails
          endpoint={endpoint.data}
          onChanged={(changed) => update(() => changed)}
          reload={reload}
        />
      )}
    </div>
  );
}

function EndpointDetails({
  endpoint,
  onChanged,
  reload,
}: {
  endpoint: Endpoint;
  onChanged: (endpoint: Endpoint) => void;
  reload: () => void;
}) {
  const { session } = useSession();
  const manage = can(session, 'webhooks.manage');
  const state = endpointState(endpoint);
  const toggling = useAction((enabled: boolean) => updateEndpoint(endpoint.id, { enabled }));
  const testing = useAction(sendTestPing);
  const [ping, setPing] = useState<TestDelivery | null>(null);

  async function toggle() {
    const answer = await toggling.run(!endpoint.enabled);
    if (answer) onChanged(answer.value);
  }

  async function test() {
    setPing(null);
    const answer = await testing.run(endpoint.id);
    if (!answer) return;
    setPing(answer.value);
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
          <button type="button" onClick={() => void toggle()} disabled={toggling.busy}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" onClick={() => void test()} disabled={testing.busy}>
            {testing.busy ? 'Sending…' : 'Send test ping'}
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

      {can(session, 'webhooks.secrets') && (
        <SecretPanel endpointId={endpoint.id} onRotated={reload} />
      )}
      <RecentDeliveries
        endpointId={endpoint.id}
        key={ping?.delivery_id}
        afterPing={ping !== null}
        onSettled={reload}
      />
    </>
  );
}

/** How often, and how many times at most, the list is read again while a delivery is pending. */
const POLL_MS = 1_000;
const MAX_POLLS = 60;

/**
 * The endpoint's last deliveries. While one is pending (a Test ping just sent, or a retry
 * waiting) the list reads itself again every second, so a person sees the outcome arrive; when
 * none is pending any more, `onSettled` refreshes the endpoint (its success rate, and its state:
 * a successful ping enables an auto-disabled endpoint again).
 */
function RecentDeliveries({
  endpointId,
  afterPing,
  onSettled,
}: {
  endpointId: string;
  /** Mounted for a ping just sent: the endpoint is refreshed once it settles, even at once. */
  afterPing: boolean;
  onSettled: () => void;
}) {
  const [recent, { reload }] = useLoad(
    () => listDeliveries({ endpoint: endpointId, limit: 10 }),
    [endpointId],
  );
  const polls = useRef(0);
  // A ping may be delivered before the first read: the endpoint still owes a refresh.
  const owed = useRef(afterPing);
  const pending =
    recent.status === 'ready' && recent.data.data.some((delivery) => delivery.status === 'pending');
  useEffect(() => {
    if (recent.status !== 'ready') return;
    if (!pending) {
      if (owed.current || polls.current > 0) onSettled();
      owed.current = false;
      polls.current = 0;
      return;
    }
    if (polls.current >= MAX_POLLS) return;
    const timer = window.setTimeout(() => {
      polls.current += 1;
      reload();
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [recent, pending, reload, onSettled]);
  return (
    <section aria-labelledby="recent-heading">
      <div className="page-head">
        <h2 id="recent-heading">Recent deliveries</h2>
        <Link to={`/deliveries?endpoint=${encodeURIComponent(endpointId)}`}>
          All deliveries of this endpoint
        </Link>
      </div>
      {recent.status === 'loading' && <Loading what="deliveries" />}
      {recent.status === 'failed' && <ErrorNotice error={recent.error} />}
      {recent.status === 'ready' && (
        <DeliveryTable
          deliveries={recent.data.data}
          showEndpoint={false}
          caption="Recent deliveries of this endpoint"
        />
      )}
    </section>
  );
}
