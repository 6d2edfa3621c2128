import type { Audit, AuditItemQuery } from '@custodian/console-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ActivityList } from '../activity/activity-list';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime, progressText } from '../shared/format';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { AUDIT_STATUS_BADGE, AUDIT_STATUS_LABEL, isLive, scopeText } from './audit-values';
import { auditQueries, useCancelAudit, useCompleteAudit } from './audits.queries';

const LISTS = [
  { state: 'missing', label: 'Missing', empty: 'Nothing is missing.' },
  { state: 'found', label: 'Found', empty: 'Nothing found yet.' },
  { state: 'unexpected', label: 'Unexpected', empty: 'Nothing unexpected.' },
  { state: 'misplaced', label: 'Misplaced', empty: 'Nothing misplaced.' },
] as const;
type ListState = (typeof LISTS)[number]['state'];
const PAGE_SIZE = 25;

export function AuditPage() {
  usePageTitle('Audit');
  const { id = '' } = useParams();
  const audit = useQuery(auditQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/audits">Audits</Link>
      </p>
      <QueryState query={audit} what="the audit">
        {(shown) => <AuditDetails audit={shown} />}
      </QueryState>
    </div>
  );
}

function AuditDetails({ audit }: { audit: Audit }) {
  const { session } = useSession();
  const manage = can(session, 'audits.manage');
  const [completing, setCompleting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [moveFound, setMoveFound] = useState(false);
  const [markLost, setMarkLost] = useState(false);
  const complete = useCompleteAudit();
  const cancel = useCancelAudit();
  const open = audit.status === 'open';
  // A job ends on its own (open, completed): what it wrote, the feed and the assets it moved
  // or marked, is read again when the status it reaches shows here.
  const client = useQueryClient();
  useEffect(() => {
    void invalidateRoots(client, [QUERY_ROOT.activity, QUERY_ROOT.assets]);
  }, [audit.status, client]);
  return (
    <>
      <div className="page-head">
        <h1>{audit.name}</h1>
        <span className={`badge ${AUDIT_STATUS_BADGE[audit.status]}`}>
          {AUDIT_STATUS_LABEL[audit.status]}
        </span>
      </div>
      {manage && (open || audit.status === 'starting') && (
        <div className="actions">
          {open && (
            <Link to={`/scan?audit=${audit.id}`} className="button button-primary">
              Scan into this audit
            </Link>
          )}
          {open && (
            <button
              type="button"
              className="button"
              onClick={() => {
                complete.reset();
                setCompleting(true);
              }}
            >
              Complete
            </button>
          )}
          <button
            type="button"
            className="button-danger-quiet"
            onClick={() => {
              cancel.reset();
              setCancelling(true);
            }}
          >
            Cancel audit
          </button>
        </div>
      )}
      <dl className="details">
        <dt>Covers</dt>
        <dd>
          {audit.location ? (
            <Link to={`/locations/${audit.location.id}`}>{scopeText(audit)}</Link>
          ) : (
            scopeText(audit)
          )}
        </dd>
        {audit.due_at && (
          <>
            <dt>Due</dt>
            <dd>{formatDateTime(audit.due_at)}</dd>
          </>
        )}
        <dt>Started</dt>
        <dd>{audit.started_at ? formatDateTime(audit.started_at) : 'Not yet'}</dd>
        {audit.completed_at && (
          <>
            <dt>Completed</dt>
            <dd>{formatDateTime(audit.completed_at)}</dd>
          </>
        )}
      </dl>
      {audit.progress && (
        <section className="card" aria-labelledby="audit-progress">
          <h2 id="audit-progress">
            {audit.status === 'starting' ? 'Listing the expected assets' : 'Completing'}
          </h2>
          <progress max={audit.progress.total} value={audit.progress.done} />
          <p className="hint">{progressText(audit.progress)}</p>
        </section>
      )}
      <section className="card" aria-labelledby="audit-counts">
        <h2 id="audit-counts">Counts</h2>
        <dl className="stats">
          {(
            [
              ['Expected', audit.counts.expected],
              ['Found', audit.counts.found],
              ['Missing', audit.counts.missing],
              ['Unexpected', audit.counts.unexpected],
              ['Misplaced', audit.counts.misplaced],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="stat">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {isLive(audit.status) && <p className="hint">These update as scans come in.</p>}
      </section>
      <AuditLists audit={audit} />
      <section className="card" aria-labelledby="audit-history">
        <h2 id="audit-history">History</h2>
        <ActivityList query={{ record_id: audit.id }} showRecord={false} />
      </section>
      <ConfirmDialog
        open={completing}
        title={`Complete ${audit.name}?`}
        confirmLabel="Complete audit"
        busy={complete.isPending}
        error={complete.error}
        onConfirm={() =>
          complete.mutate(
            { id: audit.id, options: { move_found: moveFound, mark_missing_lost: markLost } },
            { onSuccess: () => setCompleting(false) },
          )
        }
        onClose={() => setCompleting(false)}
      >
        <p>
          {audit.counts.missing} expected {audit.counts.missing === 1 ? 'asset was' : 'assets were'}{' '}
          not scanned: each is reported missing (<span className="mono">audit.item_missing</span>).
        </p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={moveFound}
            onChange={(event) => setMoveFound(event.target.checked)}
          />{' '}
          Move the found assets to where they were scanned
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={markLost}
            onChange={(event) => setMarkLost(event.target.checked)}
          />{' '}
          Mark the missing assets lost
        </label>
      </ConfirmDialog>
      <ConfirmDialog
        open={cancelling}
        title={`Cancel ${audit.name}?`}
        confirmLabel="Cancel audit"
        danger
        busy={cancel.isPending}
        error={cancel.error}
        onConfirm={() => cancel.mutate(audit.id, { onSuccess: () => setCancelling(false) })}
        onClose={() => setCancelling(false)}
      >
        <p>Its scans are kept; nothing is reported missing.</p>
      </ConfirmDialog>
    </>
  );
}

/** The audit's assets by what became of them: missing, found, unexpected, misplaced. */
function AuditLists({ audit }: { audit: Audit }) {
  const [state, setState] = useState<ListState>('missing');
  const [page, setPage] = useState(1);
  const query: AuditItemQuery = { state, page: String(page), pageSize: String(PAGE_SIZE) };
  const items = useQuery(auditQueries.items(audit.id, query, isLive(audit.status)));
  const list = LISTS.find((each) => each.state === state) ?? LISTS[0];
  return (
    <section className="card" aria-labelledby="audit-lists">
      <h2 id="audit-lists">Assets</h2>
      <nav className="tabs" aria-label="Audit lists">
        {LISTS.map((each) => (
          <button
            key={each.state}
            type="button"
            className="tab"
            aria-current={each.state === state ? 'page' : undefined}
            onClick={() => {
              setState(each.state);
              setPage(1);
            }}
          >
            {each.label} ({audit.counts[each.state]})
          </button>
        ))}
      </nav>
      <QueryState query={items} what="the assets">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">{list.label}</caption>
                <thead>
                  <tr>
                    <th scope="col">Asset</th>
                    <th scope="col">Tag</th>
                    <th scope="col">Recorded at</th>
                    <th scope="col">Scanned at</th>
                    <th scope="col">Scanned</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={5} className="empty">
                        {list.empty}
                      </td>
                    </tr>
                  )}
                  {found.data.map((item) => (
                    <tr key={item.asset.id}>
                      <th scope="row">
                        <Link to={`/assets/${item.asset.id}`}>{item.asset.name}</Link>
                      </th>
                      <td className="mono">{item.asset.asset_tag}</td>
                      <td>{item.expected_location?.name ?? '—'}</td>
                      <td>{item.scanned_location?.name ?? '—'}</td>
                      <td>{item.scanned_at ? formatDateTime(item.scanned_at) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['asset', 'assets']}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
