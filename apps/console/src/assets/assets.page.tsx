import type { AssetListQuery, AssetStatus } from '@custodian/console-client';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { listAssets } from '../api/assets.api';
import { useSession } from '../app/session-context';
import { formatDateTime, plural } from '../shared/format';
import { ErrorNotice, Loading } from '../shared/notices';
import { can } from '../shared/permissions';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { StatusOptions } from './asset-options';
import { STATUS_LABEL, isStatus } from './asset-values';

const PAGE_SIZE = 50;

/** The list's state, all of it in the URL (`?search=&status=&page=`), so a view can be shared. */
interface ListView {
  search: string;
  status: AssetStatus | null;
  page: number;
}

function viewFromSearch(search: URLSearchParams): ListView {
  const page = Number(search.get('page') ?? '1');
  const status = search.get('status');
  return {
    search: search.get('search') ?? '',
    status: isStatus(status) ? status : null,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

function searchFromView(view: ListView): URLSearchParams {
  const search = new URLSearchParams();
  if (view.search) search.set('search', view.search);
  if (view.status) search.set('status', view.status);
  if (view.page > 1) search.set('page', String(view.page));
  return search;
}

export function AssetsPage() {
  usePageTitle('Assets');
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const paramsText = params.toString();
  const view = useMemo(() => viewFromSearch(new URLSearchParams(paramsText)), [paramsText]);
  const [assets] = useLoad(() => {
    const query: AssetListQuery = { page: view.page, pageSize: PAGE_SIZE };
    if (view.search) query.search = view.search;
    if (view.status) query.status = view.status;
    return listAssets(query);
  }, [view]);
  const [typed, setTyped] = useState(view.search);
  const [status, setStatus] = useState<AssetStatus | ''>(view.status ?? '');

  function show(next: ListView) {
    setParams(searchFromView(next));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    show({ search: typed.trim(), status: status || null, page: 1 });
  }

  const filtered = view.search !== '' || view.status !== null;

  return (
    <div className="page">
      <div className="page-head">
        <h1>Assets</h1>
        <div className="actions">
          {can(session, 'assets.scan') && (
            <Link to="/scan" className="button">
              Scan
            </Link>
          )}
          <Link to="/assets/bin" className="button">
            Bin
          </Link>
          {can(session, 'assets.manage') && (
            <Link to="/assets/new" className="button button-primary">
              Add asset
            </Link>
          )}
        </div>
      </div>
      <form className="filters filters-assets" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="asset-search">Search</label>
          <input
            id="asset-search"
            type="search"
            maxLength={200}
            value={typed}
            placeholder="Name, tag, serial, brand, model or SKU"
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="asset-status">Status</label>
          <select
            id="asset-status"
            value={status}
            onChange={(event) => setStatus(event.target.value as AssetStatus | '')}
          >
            <option value="">Any</option>
            <StatusOptions />
          </select>
        </div>
        <div className="field field-button">
          <button type="submit">Show</button>
        </div>
      </form>
      {filtered && (
        <p>
          <Link
            to="/assets"
            onClick={() => {
              setTyped('');
              setStatus('');
            }}
          >
            Clear the search
          </Link>
        </p>
      )}
      {assets.status === 'loading' && <Loading what="assets" />}
      {assets.status === 'failed' && <ErrorNotice error={assets.error} />}
      {assets.status === 'ready' && (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Assets</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Category</th>
                  <th scope="col">Serial number</th>
                  <th scope="col">Checked out to</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {assets.data.data.length === 0 && (
                  <tr>
                    <td colSpan={6} className="empty">
                      {filtered ? 'No asset matches.' : 'No assets yet.'}
                    </td>
                  </tr>
                )}
                {assets.data.data.map((asset) => (
                  <tr key={asset.id}>
                    <td>
                      <Link to={`/assets/${asset.id}`}>{asset.name}</Link>
                    </td>
                    <td>{STATUS_LABEL[asset.status]}</td>
                    <td>{asset.category?.name ?? <span className="muted">—</span>}</td>
                    <td className="mono">{asset.serial_number ?? ''}</td>
                    <td>{asset.assigned_to?.name ?? <span className="muted">In stock</span>}</td>
                    <td className="nowrap">{formatDateTime(asset.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={view.page}
            total={assets.data.total}
            onPage={(page) => show({ ...view, page })}
          />
        </>
      )}
    </div>
  );
}

function Pager({
  page,
  total,
  onPage,
}: {
  page: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const end = Math.min(total, page * PAGE_SIZE);
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        {first.toLocaleString('en')}–{end.toLocaleString('en')} of{' '}
        {plural(total, 'asset', 'assets')}
      </span>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button type="button" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
