import type { DeletedAsset } from '@custodian/console-client';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { listDeletedAssets, restoreAsset } from '../api/assets.api';
import { useSession } from '../app/session-context';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Loading, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import type { AssetPageNotice } from './asset.page';

/** /assets/bin: deleted assets, most recently deleted first, each with Restore. */
export function BinPage() {
  usePageTitle('Bin');
  const { session } = useSession();
  const manage = can(session, 'assets.manage');
  const location = useLocation();
  const arrived = (location.state as AssetPageNotice | null)?.notice ?? null;
  const navigate = useNavigate();
  const [bin] = useLoad(listDeletedAssets, []);
  const [restoring, setRestoring] = useState<string | null>(null);
  const restore = useAction(restoreAsset);

  async function bringBack(asset: DeletedAsset) {
    setRestoring(asset.id);
    const done = await restore.run(asset.id);
    setRestoring(null);
    if (!done) return;
    const state: AssetPageNotice = { notice: `“${done.value.name}” is restored.` };
    await navigate(`/assets/${asset.id}`, { state });
  }

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/assets">Assets</Link>
      </p>
      <h1>Bin</h1>
      <p className="lead">
        Deleted assets are out of every list and the API answers 404 for them. Restoring brings one
        back with the same id, as long as its asset tag is still free.
      </p>
      {arrived && <Notice tone="success">{arrived}</Notice>}
      <ErrorNotice error={restore.error} />
      {bin.status === 'loading' && <Loading what="the bin" />}
      {bin.status === 'failed' && <ErrorNotice error={bin.error} />}
      {bin.status === 'ready' && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Deleted assets</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Asset tag</th>
                <th scope="col">Deleted</th>
                {manage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {bin.data.length === 0 && (
                <tr>
                  <td colSpan={manage ? 4 : 3} className="empty">
                    The bin is empty.
                  </td>
                </tr>
              )}
              {bin.data.map((asset) => (
                <tr key={asset.id}>
                  <td>{asset.name}</td>
                  <td className="mono">{asset.asset_tag}</td>
                  <td className="nowrap">{formatDateTime(asset.deleted_at)}</td>
                  {manage && (
                    <td className="cell-actions">
                      <button
                        type="button"
                        className="button-small"
                        disabled={restoring !== null}
                        onClick={() => void bringBack(asset)}
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
    </div>
  );
}
