import type { Import } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDateTime } from '../shared/format';
import { Pager } from '../shared/pager';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import {
  IMPORT_STATUS_BADGE,
  IMPORT_STATUS_LABEL,
  IMPORT_TYPE_LABEL,
  importTitle,
} from './import-values';
import { importQueries } from './imports.queries';
import { UploadImportForm } from './upload-import-form';

const PAGE_SIZE = 25;

/** What the dry run found, or what importing did, in a line of the list. */
function countsText(job: Import): string {
  if (job.status === 'completed' || job.status === 'importing') {
    const { created, updated, unchanged, refused } = job.results;
    return `${created} created, ${updated} updated, ${unchanged} unchanged, ${refused} refused`;
  }
  if (job.status === 'planned') {
    const { create, update, refuse } = job.plan;
    return `${create} to create, ${update} to update, ${refuse} refused`;
  }
  return '—';
}

/**
 * CSV imports, newest first, under the form that uploads one. `?type=people` opens the form on
 * people (the people list's Import link).
 */
export function ImportsPage() {
  usePageTitle('Imports');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [page, setPage] = useState(1);
  const imports = useQuery(importQueries.list(page, PAGE_SIZE));
  return (
    <div className="page">
      <div className="page-head">
        <h1>Imports</h1>
      </div>
      <p className="lead">
        Bring assets or people in from a spreadsheet. Every row is checked first: you see what will
        be created, what updated and what refused, and why, before anything is written.
      </p>
      <section className="card" aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload a CSV file</h2>
        <UploadImportForm
          type={params.get('type') === 'people' ? 'people' : 'assets'}
          onUploaded={(job) => void navigate(`/imports/${job.id}`)}
        />
      </section>
      <QueryState query={imports} what="imports">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Imports</caption>
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Of</th>
                    <th scope="col">Rows</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Uploaded</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={6} className="empty">
                        Nothing imported yet.
                      </td>
                    </tr>
                  )}
                  {found.data.map((job) => (
                    <tr key={job.id}>
                      <th scope="row">
                        <Link to={`/imports/${job.id}`}>{importTitle(job)}</Link>
                      </th>
                      <td>{IMPORT_TYPE_LABEL[job.type]}</td>
                      <td>{job.rows.toLocaleString('en')}</td>
                      <td>{countsText(job)}</td>
                      <td>{formatDateTime(job.created_at)}</td>
                      <td>
                        <span className={`badge ${IMPORT_STATUS_BADGE[job.status]}`}>
                          {IMPORT_STATUS_LABEL[job.status]}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['import', 'imports']}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
