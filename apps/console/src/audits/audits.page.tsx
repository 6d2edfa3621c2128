import type { Audit, AuditListQuery } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Dialog } from '../shared/dialog';
import { formatDateTime } from '../shared/format';
import { type ListView, useListView } from '../shared/list-view';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import {
  AUDIT_LIST_STATUSES,
  AUDIT_STATUS_BADGE,
  AUDIT_STATUS_LABEL,
  isAuditStatus,
  scopeText,
} from './audit-values';
import { auditQueries } from './audits.queries';
import { StartAuditForm } from './start-audit-form';

const PAGE_SIZE = 50;

function listQuery(view: ListView<Audit['status']>): AuditListQuery {
  const query: AuditListQuery = { page: String(view.page), pageSize: String(PAGE_SIZE) };
  if (view.status) query.status = view.status;
  return query;
}

/** Audits (stock-takes), newest first: start one, follow it, complete or cancel it. */
export function AuditsPage() {
  usePageTitle('Audits');
  const { session } = useSession();
  const navigate = useNavigate();
  const [view, show] = useListView(isAuditStatus);
  const audits = useQuery(auditQueries.list(listQuery(view)));
  const [starting, setStarting] = useState(false);
  return (
    <div className="page">
      <div className="page-head">
        <h1>Audits</h1>
        {can(session, 'audits.manage') && (
          <div className="actions">
            <button type="button" className="button-primary" onClick={() => setStarting(true)}>
              Start audit
            </button>
          </div>
        )}
      </div>
      <p className="lead">
        A stock-take: scan what is there, and learn what should be and is not, what is there and
        should not be, and what sits in the wrong place.
      </p>
      <nav className="tabs" aria-label="Audit status">
        <Link to="/audits" aria-current={view.status === null ? 'page' : undefined}>
          All
        </Link>
        {AUDIT_LIST_STATUSES.map((status) => (
          <Link
            key={status}
            to={`/audits?status=${status}`}
            aria-current={view.status === status ? 'page' : undefined}
          >
            {AUDIT_STATUS_LABEL[status]}
          </Link>
        ))}
      </nav>
      <QueryState query={audits} what="audits">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Audits</caption>
                <thead>
                  <tr>
                    <th scope="col">Audit</th>
                    <th scope="col">Covers</th>
                    <th scope="col">Found</th>
                    <th scope="col">Missing</th>
                    <th scope="col">Started</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={6} className="empty">
                        No audits here.
                      </td>
                    </tr>
                  )}
                  {found.data.map((audit) => (
                    <tr key={audit.id}>
                      <th scope="row">
                        <Link to={`/audits/${audit.id}`}>{audit.name}</Link>
                      </th>
                      <td>{scopeText(audit)}</td>
                      <td>
                        {audit.counts.found} of {audit.counts.expected}
                      </td>
                      <td>{audit.counts.missing}</td>
                      <td>{formatDateTime(audit.started_at ?? audit.created_at)}</td>
                      <td>
                        <span className={`badge ${AUDIT_STATUS_BADGE[audit.status]}`}>
                          {AUDIT_STATUS_LABEL[audit.status]}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['audit', 'audits']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
      <Dialog open={starting} title="Start audit" onClose={() => setStarting(false)}>
        <StartAuditForm
          onStarted={(audit) => {
            setStarting(false);
            void navigate(`/audits/${audit.id}`);
          }}
          onCancel={() => setStarting(false)}
        />
      </Dialog>
    </div>
  );
}
