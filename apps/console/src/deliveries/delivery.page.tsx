import type { Attempt, DeliveryDetail } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { StatusBadge, lastOutcome } from '../shared/delivery-table';
import { formatDateTime, formatDuration, prettyJson } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { deliveryQueries, useResendDelivery } from './deliveries.queries';

export function DeliveryPage() {
  usePageTitle('Delivery');
  const { id = '' } = useParams();
  const delivery = useQuery(deliveryQueries.detail(id));

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/deliveries">Delivery log</Link>
      </p>
      <QueryState query={delivery} what="the delivery">
        {(shown) => <DeliveryDetails delivery={shown} />}
      </QueryState>
    </div>
  );
}

function DeliveryDetails({ delivery }: { delivery: DeliveryDetail }) {
  const { session } = useSession();
  const resending = useResendDelivery();
  const [resent, setResent] = useState(false);

  function resend() {
    setResent(false);
    resending.mutate(delivery.delivery_id, { onSuccess: () => setResent(true) });
  }

  return (
    <>
      <div className="page-head">
        <h1>
          <span className="mono">{delivery.event}</span> delivery
        </h1>
        {can(session, 'webhooks.manage') && (
          <button type="button" onClick={resend} disabled={resending.isPending}>
            {resending.isPending ? 'Resending…' : 'Resend'}
          </button>
        )}
      </div>
      <ErrorNotice error={resending.error} />
      {resent && (
        <Notice tone="success">
          Resent: a new chain of up to 3 attempts has started under the same delivery id.
        </Notice>
      )}
      <dl className="details">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={delivery.status} /> after{' '}
          {delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`} (last answer:{' '}
          {lastOutcome(delivery)})
        </dd>
        <dt>Endpoint</dt>
        <dd>
          <Link to={`/webhooks/${delivery.endpoint_id}`} className="mono">
            {delivery.endpoint_url}
          </Link>
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(delivery.created_at)}</dd>
        <dt>Last attempt</dt>
        <dd>{formatDateTime(delivery.last_attempt_at, 'Not yet')}</dd>
        <dt>Delivery id</dt>
        <dd className="mono">{delivery.delivery_id}</dd>
        <dt>Event id</dt>
        <dd className="mono">{delivery.event_id}</dd>
      </dl>

      <section aria-labelledby="body-heading">
        <h2 id="body-heading">Body as sent</h2>
        <pre className="code">{prettyJson(delivery.payload)}</pre>
      </section>

      <section aria-labelledby="attempts-heading">
        <h2 id="attempts-heading">Attempts</h2>
        {delivery.attempt_log.length === 0 && <p className="muted">No attempt yet.</p>}
        <ol className="attempts">
          {delivery.attempt_log.map((attempt, index, all) => (
            <li key={`${attempt.chain}-${attempt.attempt}`}>
              <AttemptDetails
                attempt={attempt}
                inChain={all.slice(0, index + 1).filter((a) => a.chain === attempt.chain).length}
              />
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

function HeaderTable({ headers, caption }: { headers: Record<string, string>; caption: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="muted">No headers.</p>;
  return (
    <table className="headers">
      <caption>{caption}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono break">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One attempt. The worker numbers attempts over the delivery's whole life; a person reads them per
 * chain (each send or resend has up to 3), so the heading counts within the chain.
 */
function AttemptDetails({ attempt, inChain }: { attempt: Attempt; inChain: number }) {
  const chain = attempt.chain === 1 ? 'First send' : `Resend ${attempt.chain - 1}`;
  const outcome =
    attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'No answer');
  return (
    <article className="attempt">
      <h3>
        {chain}, attempt {inChain}: {outcome}
      </h3>
      <p className="muted">
        {formatDateTime(attempt.started_at)} · took {formatDuration(attempt.duration_ms)}
        {attempt.error && attempt.status_code !== null && ` · error: ${attempt.error}`}
      </p>
      <div className="attempt-grid">
        <HeaderTable headers={attempt.request_headers} caption="Request headers" />
        <HeaderTable headers={attempt.response_headers} caption="Response headers" />
      </div>
      <h4>Response body</h4>
      {attempt.response_body === null ? (
        <p className="muted">No body.</p>
      ) : (
        <pre className="code">{attempt.response_body}</pre>
      )}
    </article>
  );
}
