import type { Person } from '@custodian/console-client';
import { useState } from 'react';
import { Link } from 'react-router';
import { listHoldings } from '../api/people.api';
import { STATUS_LABEL } from '../assets/asset-values';
import { formatDateTime, plural } from '../shared/format';
import { ErrorNotice, Loading } from '../shared/notices';
import { Pager } from '../shared/pager';
import { useLoad } from '../shared/use-load';

const PAGE_SIZE = 25;
/** As many as the offboarding dialog lists before it says how many more there are. */
const LISTED_BEFORE_OFFBOARDING = 20;

/**
 * The assets checked out to the person now, a page at a time. When each was checked out comes
 * from the person's own `holdings`, which has it for the 50 most recent check-outs only.
 */
export function PersonHoldings({ person }: { person: Person }) {
  const [page, setPage] = useState(1);
  // Reloaded when the person changes (`updated_at`), so an answer from a write shows at once.
  const [holdings] = useLoad(
    () => listHoldings(person.id, page, PAGE_SIZE),
    [person.id, person.updated_at, page],
  );
  const since = new Map(person.holdings.map((holding) => [holding.id, holding.since]));

  return (
    <section className="card" aria-labelledby="person-holdings">
      <h2 id="person-holdings">Holdings</h2>
      {holdings.status === 'loading' && <Loading what="what they hold" />}
      {holdings.status === 'failed' && <ErrorNotice error={holdings.error} />}
      {holdings.status === 'ready' && holdings.data.total === 0 && (
        <p className="muted">Nothing is checked out to them.</p>
      )}
      {holdings.status === 'ready' && holdings.data.total > 0 && (
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
                {holdings.data.data.map((asset) => (
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
          {holdings.data.total > PAGE_SIZE && (
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={holdings.data.total}
              noun={['asset', 'assets']}
              label="Pages of holdings"
              onPage={setPage}
            />
          )}
        </>
      )}
    </section>
  );
}

/**
 * What the person still holds, read afresh when the offboarding dialog opens (it mounts with
 * the dialog's content): offboarding checks nothing in, so whoever confirms sees what stays out.
 */
export function StillHeld({ personId }: { personId: string }) {
  const [holdings] = useLoad(
    () => listHoldings(personId, 1, LISTED_BEFORE_OFFBOARDING),
    [personId],
  );
  if (holdings.status === 'loading') return <Loading what="what they hold" />;
  if (holdings.status === 'failed') return <ErrorNotice error={holdings.error} />;
  const { data, total } = holdings.data;
  if (total === 0) return <p>They hold nothing: every asset is checked in.</p>;
  return (
    <>
      <p>
        <strong>They still hold {plural(total, 'asset', 'assets')}.</strong> Offboarding checks
        nothing in: {total === 1 ? 'it stays' : 'they stay'} checked out to them.
      </p>
      <ul aria-label="Still held">
        {data.map((asset) => (
          <li key={asset.id}>
            {asset.name}
            {asset.serial_number && <span className="muted mono"> {asset.serial_number}</span>}
          </li>
        ))}
      </ul>
      {total > data.length && <p className="muted">…and {total - data.length} more.</p>}
    </>
  );
}
