import type { AssetListQuery, AssetStatus, AssetSummary } from '@custodian/console-client';
import type { ReactNode } from 'react';
import { type FormEvent, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { type ListView, useListView } from '../shared/list-view';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { AssetBulkBar } from './asset-bulk-bar';
import { type Selection, pageState, withPage, withRow } from './asset-bulk-values';
import { StatusOptions } from './asset-options';
import {
  ASSET_COLUMNS,
  chosenColumns,
  exportHref,
  saveColumns,
  toggleColumn,
  type AssetColumn,
} from './asset-columns';
import { STATUS_LABEL, isStatus } from './asset-values';
import { assetQueries } from './assets.queries';

const PAGE_SIZE = 50;

/** localStorage, when the browser lets the page use it. */
function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const CELL_CLASS: Partial<Record<AssetColumn, string>> = {
  serial_number: 'mono',
  sku: 'mono',
  updated_at: 'nowrap',
};

function cell(asset: AssetSummary, column: AssetColumn): ReactNode {
  const none = <span className="muted">—</span>;
  switch (column) {
    case 'status':
      return STATUS_LABEL[asset.status];
    case 'category':
      return asset.category?.name ?? none;
    case 'assigned_to':
      return asset.assigned_to?.name ?? <span className="muted">In stock</span>;
    case 'updated_at':
      return formatDateTime(asset.updated_at);
    case 'brand':
    case 'model':
    case 'serial_number':
    case 'sku':
      return asset[column] ?? '';
  }
}

/** The orders the list offers, as the API's `sort` takes them ('' is its default). */
const SORTS = [
  { value: '', label: 'Oldest first' },
  { value: '-created_at', label: 'Newest first' },
  { value: 'name', label: 'Name, A to Z' },
  { value: '-name', label: 'Name, Z to A' },
  { value: '-updated_at', label: 'Recently changed' },
  { value: 'updated_at', label: 'Longest unchanged' },
] as const;
type SortValue = (typeof SORTS)[number]['value'];
const SORT_VALUES = SORTS.map((sort) => sort.value).filter(Boolean);

/** The API's query for the list view in the URL: the key of its page in the cache. */
function listQuery(view: ListView<AssetStatus>): AssetListQuery {
  const query: AssetListQuery = { page: view.page, pageSize: PAGE_SIZE };
  if (view.search) query.search = view.search;
  if (view.status) query.status = view.status;
  if (view.sort) query.sort = view.sort as AssetListQuery['sort'];
  return query;
}

export function AssetsPage() {
  usePageTitle('Assets');
  const { session } = useSession();
  const [view, show] = useListView(isStatus, SORT_VALUES);
  const assets = useQuery(assetQueries.list(listQuery(view)));
  const [typed, setTyped] = useState(view.search);
  const [status, setStatus] = useState<AssetStatus | ''>(view.status ?? '');
  const [sort, setSort] = useState<SortValue>((view.sort ?? '') as SortValue);
  const [columns, setColumns] = useState(() => chosenColumns(browserStorage()));
  // The rows chosen for a bulk action, kept while paging and filtering.
  const [selection, setSelection] = useState<Selection>(() => new Map());
  const selectable = can(session, 'assets.manage');

  function toggle(column: AssetColumn) {
    const next = toggleColumn(columns, column);
    setColumns(next);
    saveColumns(browserStorage(), next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    show({ search: typed.trim(), status: status || null, sort: sort || null, page: 1 });
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
          <a className="button" href={exportHref(view.search, view.status, columns)} download>
            Export CSV
          </a>
          {can(session, 'imports.manage') && (
            <Link to="/imports?type=assets" className="button">
              Import CSV
            </Link>
          )}
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
        <div className="field">
          <label htmlFor="asset-sort">Order</label>
          <select
            id="asset-sort"
            value={sort}
            onChange={(event) => setSort(event.target.value as SortValue)}
          >
            {SORTS.map((each) => (
              <option key={each.value} value={each.value}>
                {each.label}
              </option>
            ))}
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
      <details className="column-picker">
        <summary>Columns</summary>
        <fieldset>
          <legend className="visually-hidden">Columns shown</legend>
          {ASSET_COLUMNS.map((column) => (
            <label key={column.key} className="checkbox">
              <input
                type="checkbox"
                checked={columns.includes(column.key)}
                onChange={() => toggle(column.key)}
              />{' '}
              {column.label}
            </label>
          ))}
        </fieldset>
      </details>
      {selectable && <AssetBulkBar selection={selection} onClear={() => setSelection(new Map())} />}
      <QueryState query={assets} what="assets">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Assets</caption>
                <thead>
                  <tr>
                    {selectable && (
                      <th scope="col" className="select-cell">
                        <PageCheckbox
                          state={pageState(selection, found.data)}
                          onChange={(on) => setSelection(withPage(selection, found.data, on))}
                        />
                      </th>
                    )}
                    <th scope="col">Name</th>
                    {columns.map((column) => (
                      <th scope="col" key={column}>
                        {ASSET_COLUMNS.find((each) => each.key === column)?.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={columns.length + (selectable ? 2 : 1)} className="empty">
                        {filtered ? 'No asset matches.' : 'No assets yet.'}
                      </td>
                    </tr>
                  )}
                  {found.data.map((asset) => (
                    <tr key={asset.id}>
                      {selectable && (
                        <td className="select-cell">
                          <input
                            type="checkbox"
                            aria-label={`Select ${asset.name}`}
                            checked={selection.has(asset.id)}
                            onChange={(event) =>
                              setSelection(withRow(selection, asset, event.target.checked))
                            }
                          />
                        </td>
                      )}
                      <td>
                        <Link to={`/assets/${asset.id}`}>{asset.name}</Link>
                      </td>
                      {columns.map((column) => (
                        <td key={column} className={CELL_CLASS[column]}>
                          {cell(asset, column)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['asset', 'assets']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}

/** "Select all on this page": checked, unchecked, or mixed when some of the page is chosen. */
function PageCheckbox({
  state,
  onChange,
}: {
  state: 'all' | 'some' | 'none';
  onChange: (on: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label="Select all on this page"
      checked={state === 'all'}
      ref={(input) => {
        if (input) input.indeterminate = state === 'some';
      }}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}
