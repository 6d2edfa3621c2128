import type { License } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { ExpiryBadge } from '../shared/expiry-badge';
import { LicenseSettingsCard } from './license-settings-card';
import { seatShare, seatsText } from './license-values';
import { licenseQueries } from './licenses.queries';

const PAGE_SIZE = 50;

/** The seats in use as a bar, with the count in words beside it. */
export function SeatsBar({ license }: { license: License }) {
  const share = seatShare(license);
  return (
    <div className="seats">
      {share !== null && (
        <div
          className={`seats-bar${share >= 1 ? ' seats-bar-full' : ''}`}
          role="meter"
          aria-label={`Seats of ${license.name}`}
          aria-valuemin={0}
          aria-valuemax={license.seats ?? 0}
          aria-valuenow={license.seats_used}
        >
          <span style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
      )}
      <span className="seats-text">{seatsText(license)}</span>
    </div>
  );
}

export function LicensesPage() {
  usePageTitle('Licences');
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const search = params.get('search') ?? '';
  const [typed, setTyped] = useState(search);
  const licenses = useQuery(
    licenseQueries.list({
      page: String(page),
      pageSize: String(PAGE_SIZE),
      ...(search ? { search } : {}),
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setParams(typed.trim() ? { search: typed.trim() } : {});
  }

  return (
    <div className="page">
      <div className="page-head">
        <h1>Licences</h1>
        {can(session, 'licenses.manage') && (
          <div className="actions">
            <Link to="/licenses/new" className="button button-primary">
              Add licence
            </Link>
          </div>
        )}
      </div>
      <p className="lead">Software the workspace pays for, its seats and when it ends.</p>
      <form className="filters filters-people" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="licenses-search">Search</label>
          <input
            id="licenses-search"
            type="search"
            maxLength={200}
            value={typed}
            placeholder="Name or vendor"
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <div className="field field-button">
          <button type="submit">Show</button>
        </div>
      </form>
      <QueryState query={licenses} what="licences">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Licences</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Vendor</th>
                    <th scope="col">Seats</th>
                    <th scope="col">Ends</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={4} className="empty">
                        {search ? 'No licence matches.' : 'No licences yet.'}
                      </td>
                    </tr>
                  )}
                  {found.data.map((license) => (
                    <tr key={license.id}>
                      <td>
                        <Link to={`/licenses/${license.id}`}>{license.name}</Link>
                      </td>
                      <td>{license.vendor ?? <span className="muted">—</span>}</td>
                      <td>
                        <SeatsBar license={license} />
                      </td>
                      <td>
                        <ExpiryBadge expiresOn={license.expires_on} />
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
              noun={['licence', 'licences']}
              onPage={(next) => setParams({ ...(search ? { search } : {}), page: String(next) })}
            />
          </>
        )}
      </QueryState>
      <LicenseSettingsCard />
    </div>
  );
}
