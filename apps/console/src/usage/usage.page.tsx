import type { KeyUsage, PlanUsage, UsageMeter } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { formatDate, formatDateTime } from '../shared/format';
import { Notice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { usageQueries } from './usage.queries';

type LimitName = UsageMeter['name'];

const LABELS: Record<LimitName, string> = {
  assets: 'Assets',
  people: 'People',
  seats: 'Member seats',
  monthly_quota: 'Requests this month, busiest key',
  rate_per_minute: 'Requests this minute, busiest key',
};

/** The meters' share of a limit from which they turn amber, as the API's `near` state. */
const NEAR = 0.8;

const count = (value: number) => value.toLocaleString('en');

/** /usage: the plan, its limits and what is used of each, and the limits reached or near. */
export function UsagePage() {
  usePageTitle('Plan & usage');
  const usage = useQuery(usageQueries.plan());

  return (
    <div className="page">
      <div className="page-head">
        <h1>Plan &amp; usage</h1>
        <button
          type="button"
          className="button"
          disabled={usage.isRefetching}
          onClick={() => void usage.refetch()}
        >
          {usage.isRefetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p className="lead">
        What this workspace&apos;s plan allows and what is used of it. Limits come from the plan and
        any overrides agreed for the workspace.
      </p>
      <QueryState query={usage} what="the plan and usage">
        {(shown) => <Usage usage={shown} />}
      </QueryState>
    </div>
  );
}

function Usage({ usage }: { usage: PlanUsage }) {
  const register = usage.meters.filter((meter) => !meter.per_key);
  const requests = usage.meters.filter((meter) => meter.per_key);
  const minute = usage.minute_window;
  return (
    <>
      <dl className="facts">
        <div>
          <dt>Plan</dt>
          <dd>{usage.plan}</dd>
        </div>
        <div>
          <dt>API and webhooks</dt>
          <dd>{usage.api_access ? 'Included' : 'Not included'}</dd>
        </div>
        <div>
          <dt>Counted at</dt>
          <dd>{formatDateTime(usage.as_of)}</dd>
        </div>
      </dl>

      {usage.notices.length === 0 && (
        <Notice tone="success">Every limit has room: none is reached or nearly reached.</Notice>
      )}
      <section aria-label="Limits reached or nearly reached">
        {usage.notices.map((notice, index) =>
          notice.level === 'reached' ? (
            <p key={index} className="notice notice-error" role="alert">
              <strong>Limit reached.</strong> {notice.message}.
            </p>
          ) : (
            <Notice key={index} tone="warning">
              <strong>Nearly there.</strong> {notice.message}.
            </Notice>
          ),
        )}
      </section>

      <h2>Register</h2>
      <ul className="meters">
        {register.map((meter) => (
          <Meter key={meter.name} meter={meter} />
        ))}
      </ul>

      <h2>API requests</h2>
      {!usage.api_access && (
        <Notice>
          The {usage.plan} plan does not include the API or webhooks: every API request is refused
          until the workspace moves to the pro plan or above. Keys made before keep working after an
          upgrade.
        </Notice>
      )}
      <p className="hint">Each key has its own monthly quota and its own per-minute limit.</p>
      <ul className="meters">
        {requests.map((meter) => (
          <Meter key={meter.name} meter={meter} />
        ))}
      </ul>
      <dl className="details">
        <dt>This month ({usage.month.month}, UTC)</dt>
        <dd>
          {count(usage.month.used)} requests from all keys; counting starts again on{' '}
          {formatDate(usage.month.resets_at)}.
        </dd>
        <dt>This minute</dt>
        <dd>
          {minute.used === null
            ? 'Not known right now: the rate limiting cannot be reached.'
            : `${count(minute.used)} requests from all keys`}
          {minute.limit_per_key !== null && ` (at most ${count(minute.limit_per_key)} per key)`};
          the window resets in {minute.resets_in_seconds} s.
        </dd>
      </dl>

      {usage.keys_shown ? (
        <KeyTable keys={usage.keys} quota={usage.month.quota_per_key} />
      ) : (
        <p className="hint">
          Requests per key are shown to the roles that may see API keys; the totals above count
          every key.
        </p>
      )}
    </>
  );
}

function Meter({ meter }: { meter: UsageMeter }) {
  const label = LABELS[meter.name];
  const { limit, used } = meter;
  return (
    <li className={`meter meter-${meter.state}`}>
      <span className="meter-label" id={`meter-${meter.name}`}>
        {label}
      </span>
      <span className="meter-figures">
        {used === null ? '—' : count(used)}
        <span className="meter-of">{limit === null ? ' · unlimited' : ` of ${count(limit)}`}</span>
      </span>
      {limit !== null && limit > 0 && used !== null && (
        <meter
          aria-labelledby={`meter-${meter.name}`}
          min={0}
          max={limit}
          value={Math.min(used, limit)}
          low={limit * NEAR}
          // Just under the limit: at the limit the meter turns red, as the notice says reached.
          high={limit - limit * 1e-6}
          optimum={0}
        />
      )}
      {meter.state !== 'ok' && (
        <span className="meter-state">{meter.state === 'reached' ? 'Reached' : 'Near'}</span>
      )}
    </li>
  );
}

function KeyTable({ keys, quota }: { keys: KeyUsage[]; quota: number | null }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Requests per API key</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Prefix</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              This month
            </th>
            <th scope="col" className="num">
              Of quota
            </th>
            <th scope="col" className="num">
              This minute
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.length === 0 && (
            <tr>
              <td colSpan={6} className="empty">
                No keys yet.
              </td>
            </tr>
          )}
          {keys.map((key) => (
            <tr key={key.id} className={key.revoked ? 'row-muted' : undefined}>
              <td>{key.name ?? <span className="muted">(no name)</span>}</td>
              <td className="mono">{key.prefix}…</td>
              <td>
                {key.revoked ? (
                  <span className="badge badge-off">Revoked</span>
                ) : (
                  <span className="badge badge-on">Active</span>
                )}
              </td>
              <td className="num">{count(key.month_requests)}</td>
              <td className="num">
                {quota === null ? 'unlimited' : share(key.month_requests, quota)}
              </td>
              <td className="num">
                {key.minute_requests === null ? '—' : count(key.minute_requests)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A share of the quota, never rounded up to 100% before it is all used. */
function share(used: number, quota: number): string {
  if (quota === 0) return used > 0 ? '100%' : '0%';
  const percent = Math.floor((used / quota) * 100);
  // A key that has used some of its quota never reads as having used none.
  if (percent === 0 && used > 0) return '<1%';
  return `${Math.min(percent, 100)}%`;
}
