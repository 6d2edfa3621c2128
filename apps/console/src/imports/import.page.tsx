import type { Import, ImportRow, ImportRowQuery } from '@custodian/console-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime, progressText } from '../shared/format';
import { Pager } from '../shared/pager';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import {
  IMPORT_STATUS_BADGE,
  IMPORT_STATUS_LABEL,
  IMPORT_TYPE_LABEL,
  PLAN_LABEL,
  RESULT_LABEL,
  hasResults,
  importTitle,
  isRunning,
  shownColumns,
  startText,
} from './import-values';
import { importKeys, importQueries, useCancelImport, useStartImport } from './imports.queries';

const PAGE_SIZE = 50;

export function ImportPage() {
  usePageTitle('Import');
  const { id = '' } = useParams();
  const job = useQuery(importQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/imports">Imports</Link>
      </p>
      <QueryState query={job} what="the import">
        {(shown) => <ImportDetails job={shown} />}
      </QueryState>
    </div>
  );
}

function ImportDetails({ job }: { job: Import }) {
  const [starting, setStarting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const start = useStartImport();
  const cancel = useCancelImport();
  const cancellable = isRunning(job.status) || job.status === 'planned';
  // The job ends on its own: what it wrote (assets or people, the activity) and the list of
  // imports are read again when the status it reaches shows here.
  const client = useQueryClient();
  useEffect(() => {
    void invalidateRoots(client, [QUERY_ROOT.assets, QUERY_ROOT.people, QUERY_ROOT.activity]);
    void client.invalidateQueries({ queryKey: importKeys.lists() });
  }, [job.status, client]);
  const writable = job.plan.create + job.plan.update;
  return (
    <>
      <div className="page-head">
        <h1>{importTitle(job)}</h1>
        <span className={`badge ${IMPORT_STATUS_BADGE[job.status]}`}>
          {IMPORT_STATUS_LABEL[job.status]}
        </span>
      </div>
      {cancellable && (
        <div className="actions">
          {job.status === 'planned' && (
            <button
              type="button"
              className="button-primary"
              disabled={writable === 0}
              onClick={() => {
                start.reset();
                setStarting(true);
              }}
            >
              Start import
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
            Cancel import
          </button>
        </div>
      )}
      <dl className="details">
        <dt>Of</dt>
        <dd>{IMPORT_TYPE_LABEL[job.type]}</dd>
        <dt>Rows</dt>
        <dd>{job.rows.toLocaleString('en')}</dd>
        <dt>Columns</dt>
        <dd className="mono">{job.columns.join(', ')}</dd>
        <dt>Uploaded</dt>
        <dd>{formatDateTime(job.created_at)}</dd>
        {job.finished_at && (
          <>
            <dt>{job.status === 'completed' ? 'Finished' : 'Ended'}</dt>
            <dd>{formatDateTime(job.finished_at)}</dd>
          </>
        )}
      </dl>
      {job.error && (
        <p className="notice notice-error" role="alert">
          {job.error}
        </p>
      )}
      {job.status === 'planned' && writable === 0 && (
        <p className="notice notice-warning" role="status">
          Every row is refused: there is nothing to import. Fix the file and upload it again.
        </p>
      )}
      {job.progress && (
        <section className="card" aria-labelledby="import-progress">
          <h2 id="import-progress">
            {job.status === 'importing' ? 'Importing' : 'Checking every row (dry run)'}
          </h2>
          <progress
            max={job.progress.total}
            value={job.progress.done}
            aria-label={job.status === 'importing' ? 'Rows imported' : 'Rows checked'}
          />
          <p className="hint">{progressText(job.progress)}</p>
        </section>
      )}
      <section className="card" aria-labelledby="import-plan">
        <h2 id="import-plan">Dry run</h2>
        <dl className="stats">
          {(
            [
              ['To create', job.plan.create],
              ['To update', job.plan.update],
              ['Refused', job.plan.refuse],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="stat">
              <dt>{label}</dt>
              <dd>{value.toLocaleString('en')}</dd>
            </div>
          ))}
        </dl>
      </section>
      {hasResults(job.status) && (
        <section className="card" aria-labelledby="import-results">
          <h2 id="import-results">Results</h2>
          <dl className="stats">
            {(
              [
                ['Created', job.results.created],
                ['Updated', job.results.updated],
                ['Unchanged', job.results.unchanged],
                ['Refused', job.results.refused],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="stat">
                <dt>{label}</dt>
                <dd>{value.toLocaleString('en')}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      {/* Its tabs change from the plan to the results once applying begins: shown afresh. */}
      <ImportRows key={hasResults(job.status) ? 'results' : 'plan'} job={job} />
      <ConfirmDialog
        open={starting}
        title={`Import ${importTitle(job)}?`}
        confirmLabel="Start import"
        busy={start.isPending}
        error={start.error}
        onConfirm={() => start.mutate(job.id, { onSuccess: () => setStarting(false) })}
        onClose={() => setStarting(false)}
      >
        <p>{startText(job)}</p>
        <p className="hint">
          Each row is written as you, with the events and activity of a change made by hand.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={cancelling}
        title={`Cancel ${importTitle(job)}?`}
        confirmLabel="Cancel import"
        danger
        busy={cancel.isPending}
        error={cancel.error}
        onConfirm={() => cancel.mutate(job.id, { onSuccess: () => setCancelling(false) })}
        onClose={() => setCancelling(false)}
      >
        <p>
          {job.status === 'importing'
            ? 'Rows imported so far stay; the others are not imported.'
            : 'Nothing of it is imported.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

type RowFilter =
  | { label: string; plan: NonNullable<ImportRow['plan']> }
  | { label: string; result: NonNullable<ImportRow['result']> }
  | { label: string };

/** The dry run's tabs, worded as its counts are. */
const PLAN_TAB: Record<NonNullable<ImportRow['plan']>, string> = {
  create: 'To create',
  update: 'To update',
  refuse: 'Refused',
};

function filtersOf(job: Import): RowFilter[] {
  if (hasResults(job.status)) {
    return [
      { label: 'All' },
      ...(['created', 'updated', 'unchanged', 'refused'] as const).map((result) => ({
        label: `${RESULT_LABEL[result]} (${job.results[result].toLocaleString('en')})`,
        result,
      })),
    ];
  }
  return [
    { label: 'All' },
    ...(['create', 'update', 'refuse'] as const).map((plan) => ({
      label: `${PLAN_TAB[plan]} (${job.plan[plan].toLocaleString('en')})`,
      plan,
    })),
  ];
}

/** The file's rows with what the dry run said of each and, once applied, what became of it. */
function ImportRows({ job }: { job: Import }) {
  const filters = filtersOf(job);
  const [picked, setPicked] = useState(0);
  const [page, setPage] = useState(1);
  const filter: RowFilter = filters[picked] ?? { label: 'All' };
  const query: ImportRowQuery = { page: String(page), pageSize: String(PAGE_SIZE) };
  if ('plan' in filter) query.plan = filter.plan;
  if ('result' in filter) query.result = filter.result;
  const rows = useQuery(importQueries.rows(job.id, query, isRunning(job.status)));
  const columns = shownColumns(job);
  const results = hasResults(job.status);
  const recordPath = job.type === 'assets' ? '/assets' : '/people';
  return (
    <section className="card" aria-labelledby="import-rows">
      <h2 id="import-rows">Rows</h2>
      <nav className="tabs" aria-label="Rows shown">
        {filters.map((each, index) => (
          <button
            key={each.label}
            type="button"
            className="tab"
            aria-current={index === picked ? 'page' : undefined}
            onClick={() => {
              setPicked(index);
              setPage(1);
            }}
          >
            {each.label}
          </button>
        ))}
      </nav>
      <QueryState query={rows} what="the rows">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Rows of the file</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    {columns.map((column) => (
                      <th key={column} scope="col" className="mono">
                        {column}
                      </th>
                    ))}
                    <th scope="col">Plan</th>
                    {results && <th scope="col">Result</th>}
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={columns.length + (results ? 4 : 3)} className="empty">
                        No rows here.
                      </td>
                    </tr>
                  )}
                  {found.data.map((row) => {
                    const record = row.record_id ?? row.target_id;
                    return (
                      <tr key={row.row}>
                        <th scope="row">
                          {record ? <Link to={`${recordPath}/${record}`}>{row.row}</Link> : row.row}
                        </th>
                        {columns.map((column) => (
                          <td key={column}>{cellText(row.data[column])}</td>
                        ))}
                        <td>
                          {row.plan ? (
                            <span className={`badge ${planBadge(row.plan)}`}>
                              {PLAN_LABEL[row.plan]}
                            </span>
                          ) : (
                            '—'
                          )}
                        </td>
                        {results && <td>{row.result ? RESULT_LABEL[row.result] : 'Not yet'}</td>}
                        <td>{row.message ?? ''}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['row', 'rows']}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </section>
  );
}

function planBadge(plan: NonNullable<ImportRow['plan']>): string {
  if (plan === 'refuse') return 'badge-failed';
  return plan === 'create' ? 'badge-on' : 'badge-pending';
}

/** A cell as the file had it; an empty one as a dash. */
function cellText(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : '—';
}
