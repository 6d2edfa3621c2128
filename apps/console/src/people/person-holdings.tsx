import type { AssetSummary, Person } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { STATUS_LABEL } from '../assets/asset-values';
import { formatDateTime, plural } from '../shared/format';
import { QueryState } from '../shared/query-state';
import { Pager } from '../shared/pager';
import { personQueries } from './people.queries';

const PAGE_SIZE = 25;
/** As many as the offboarding dialog lists before it says how many more there are. */
const LISTED_BEFORE_OFFBOARDING = 20;

/**
 * The assets checked out to the person now, a page at a time. When each was checked out comes
 * from the person's own `holdings`, which has it for the 50 most recent check-outs only.
 */
export function PersonHoldings({ person }: { person: Person }) {
  const [page, setPage] = useState(1);
  // Asset and person writes invalidate it (people/people.queries.ts, assets/assets.queries.ts).
  const holdings = useQuery(personQueries.holdings(person.id, page, PAGE_SIZE));
  const since = new Map(person.holdings.map((holding) => [holding.id, holding.since]));

  return (
    <section className="card" aria-labelledby="person-holdings">
      <h2 id="person-holdings">Holdings</h2>
      <QueryState query={holdings} what="what they hold">
        {(held) =>
          held.total === 0 ? (
            <p className="muted">Nothing is checked out to them.</p>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">
                    Assets checked out to {person.full_name}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Asset</th>
                      <th scope="col">Status</th>
                      <th scope="col">Category</th>
                      <th scope="col">Serial number</th>
                      <th scope="col">Checked out</th>
                    </tr>
                  </thead>
                  <tbody>
                    {held.data.map((asset) => (
                      <tr key={asset.id}>
                        <td>
                          <Link to={`/assets/${asset.id}`}>{asset.name}</Link>
                        </td>
                        <td>{STATUS_LABEL[asset.status]}</td>
                        <td>{asset.category?.name ?? <span className="muted">—</span>}</td>
                        <td className="mono">{asset.serial_number ?? ''}</td>
                        <td className="nowrap">{formatDateTime(since.get(asset.id) ?? null)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {held.total > PAGE_SIZE && (
                <Pager
                  page={page}
                  pageSize={PAGE_SIZE}
                  total={held.total}
                  noun={['asset', 'assets']}
                  label="Pages of holdings"
                  onPage={setPage}
                />
              )}
            </>
          )
        }
      </QueryState>
    </section>
  );
}

/**
 * What the person still holds, read afresh when the offboarding dialog opens (it mounts with
 * the dialog's content): offboarding checks nothing in, so whoever confirms sees what stays out.
 */
export function StillHeld({ personId }: { personId: string }) {
  // Never the cached answer alone: whoever confirms sees what is held now.
  const holdings = useQuery({
    ...personQueries.holdings(personId, 1, LISTED_BEFORE_OFFBOARDING),
    refetchOnMount: 'always',
  });
  return (
    <QueryState query={holdings} what="what they hold">
      {(held) => <HeldList assets={held.data} total={held.total} />}
    </QueryState>
  );
}

/** The first of what they hold, and how many more. */
function HeldList({ assets, total }: { assets: AssetSummary[]; total: number }) {
  if (total === 0) return <p>They hold nothing: every asset is checked in.</p>;
  return (
    <>
      <p>
        <strong>They still hold {plural(total, 'asset', 'assets')}.</strong> Offboarding checks
        nothing in: {total === 1 ? 'it stays' : 'they stay'} checked out to them.
      </p>
      <ul aria-label="Still held">
        {assets.map((asset) => (
          <li key={asset.id}>
            {asset.name}
            {asset.serial_number && <span className="muted mono"> {asset.serial_number}</span>}
          </li>
        ))}
      </ul>
      {total > assets.length && <p className="muted">…and {total - assets.length} more.</p>}
    </>
  );
}
