import type { DeletedAsset } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import type { AssetPageNotice } from './asset.page';
import { assetQueries, useRestoreAsset } from './assets.queries';

/** /assets/bin: deleted assets, most recently deleted first, each with Restore. */
export function BinPage() {
  usePageTitle('Bin');
  const { session } = useSession();
  const manage = can(session, 'assets.manage');
  const location = useLocation();
  const arrived = (location.state as AssetPageNotice | null)?.notice ?? null;
  const navigate = useNavigate();
  const bin = useQuery(assetQueries.bin());
  const restore = useRestoreAsset();
  const restoring = restore.isPending ? restore.variables : null;

  function bringBack(asset: DeletedAsset) {
    restore.mutate(asset.id, {
      onSuccess: (restored) => {
        const state: AssetPageNotice = { notice: `“${restored.name}” is restored.` };
        void navigate(`/assets/${asset.id}`, { state });
      },
    });
  }

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/assets">Assets</Link>
      </p>
      <h1>Bin</h1>
      <p className="lead">
        Deleted assets are out of every list and the API answers 404 for them. Restoring brings one
        back with the same id, as long as its asset tag is still free. Each is purged for good on
        the date shown, and can no longer be restored.
      </p>
      {arrived && <Notice tone="success">{arrived}</Notice>}
      <ErrorNotice error={restore.error} />
      <QueryState query={bin} what="the bin">
        {(deleted) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Deleted assets</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Asset tag</th>
                  <th scope="col">Deleted</th>
                  <th scope="col">Purged on</th>
                  {manage && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {deleted.length === 0 && (
                  <tr>
                    <td colSpan={manage ? 5 : 4} className="empty">
                      The bin is empty.
                    </td>
                  </tr>
                )}
                {deleted.map((asset) => (
                  <tr key={asset.id}>
                    <td>{asset.name}</td>
                    <td className="mono">{asset.asset_tag}</td>
                    <td className="nowrap">{formatDateTime(asset.deleted_at)}</td>
                    <td className="nowrap">
                      {asset.purge_at ? formatDateTime(asset.purge_at) : 'Never'}
                    </td>
                    {manage && (
                      <td className="cell-actions">
                        <button
                          type="button"
                          className="button-small"
                          disabled={restoring !== null}
                          onClick={() => bringBack(asset)}
                        >
                          {restoring === asset.id ? 'Restoring…' : 'Restore'}
                          <span className="visually-hidden"> {asset.name}</span>
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </div>
  );
}
