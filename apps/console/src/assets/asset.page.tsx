import type { Asset, AssetCondition } from '@custodian/console-client';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ActivityList } from '../activity/activity-list';
import { deleteAsset, getAsset, updateAsset } from '../api/assets.api';
import { useSession } from '../app/session-context';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Loading, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { ConditionOptions } from './asset-options';
import { CONDITION_LABEL, STATUS_LABEL } from './asset-values';
import { CustodyPanel } from './custody-panel';

/** What the page that sent a person here wants said (a scan, a restore). */
export interface AssetPageNotice {
  notice?: string;
}

export function AssetPage() {
  usePageTitle('Asset');
  const { id = '' } = useParams();
  const location = useLocation();
  const arrived = (location.state as AssetPageNotice | null)?.notice ?? null;
  const [asset, { update }] = useLoad(() => getAsset(id), [id]);

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/assets">Assets</Link>
      </p>
      {arrived && <Notice tone="success">{arrived}</Notice>}
      {asset.status === 'loading' && <Loading what="the asset" />}
      {asset.status === 'failed' && <ErrorNotice error={asset.error} />}
      {asset.status === 'ready' && (
        <AssetDetails asset={asset.data} onChanged={(changed) => update(() => changed)} />
      )}
    </div>
  );
}

function AssetDetails({ asset, onChanged }: { asset: Asset; onChanged: (asset: Asset) => void }) {
  const { session } = useSession();
  const manage = can(session, 'assets.manage');
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const deleting = useAction(deleteAsset);

  async function remove() {
    const done = await deleting.run(asset.id);
    if (!done) return;
    await navigate('/assets/bin', {
      state: { notice: `“${asset.name}” is in the bin. Restore it from here at any time.` },
    });
  }

  return (
    <>
      <div className="page-head">
        <h1>{asset.name}</h1>
        <span className={`badge badge-status-${asset.status}`}>{STATUS_LABEL[asset.status]}</span>
      </div>
      <div className="actions">
        <Link to={`/assets/${asset.id}/label`} className="button">
          Label
        </Link>
        {manage && (
          <Link to={`/assets/${asset.id}/edit`} className="button">
            Edit
          </Link>
        )}
        {manage && (
          <button
            type="button"
            className="button-danger-quiet"
            onClick={() => {
              deleting.clearError();
              setConfirming(true);
            }}
          >
            Delete
          </button>
        )}
      </div>

      <dl className="details">
        <dt>Asset tag</dt>
        <dd className="mono">{asset.asset_tag}</dd>
        <dt>Serial number</dt>
        <dd className="mono">{asset.serial_number ?? <span className="muted">None</span>}</dd>
        <dt>Brand and model</dt>
        <dd>
          {[asset.brand, asset.model].filter(Boolean).join(' ') || (
            <span className="muted">None</span>
          )}
        </dd>
        <dt>SKU</dt>
        <dd>{asset.sku ?? <span className="muted">None</span>}</dd>
        <dt>Category</dt>
        <dd>{asset.category?.name ?? <span className="muted">None</span>}</dd>
        <dt>Location</dt>
        <dd>{asset.location?.name ?? <span className="muted">None</span>}</dd>
        <dt>Condition</dt>
        <dd>
          <ConditionField asset={asset} manage={manage} onChanged={onChanged} />
        </dd>
        <dt>Last scanned</dt>
        <dd>{formatDateTime(asset.last_scanned_at, 'Never')}</dd>
        {Object.keys(asset.custom_fields).length > 0 && (
          <>
            <dt>Custom fields</dt>
            <dd>
              <ul className="inline-list">
                {Object.entries(asset.custom_fields).map(([key, value]) => (
                  <li key={key}>
                    <span className="mono">{key}</span>: {String(value)}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDateTime(asset.created_at)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(asset.updated_at)}</dd>
      </dl>

      <CustodyPanel asset={asset} manage={manage} onChanged={onChanged} />

      <section className="card" aria-labelledby="asset-history">
        <h2 id="asset-history">History</h2>
        <ActivityList
          query={{ record_id: asset.id }}
          reloadKey={asset.updated_at}
          showRecord={false}
        />
      </section>

      <ConfirmDialog
        open={confirming}
        title="Delete this asset?"
        confirmLabel="Move to the bin"
        danger
        busy={deleting.busy}
        error={deleting.error}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      >
        <p>
          “{asset.name}” (<span className="mono">{asset.asset_tag}</span>) leaves the asset list and
          the API answers 404 for it until someone restores it from the bin.
          {asset.assigned_to &&
            ` It is checked out to ${asset.assigned_to.name}: check it in first.`}
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The condition, and for those who may change assets a select that records a new one. */
function ConditionField({
  asset,
  manage,
  onChanged,
}: {
  asset: Asset;
  manage: boolean;
  onChanged: (asset: Asset) => void;
}) {
  const [chosen, setChosen] = useState<AssetCondition | ''>(asset.condition ?? '');
  const saving = useAction((condition: AssetCondition | null) =>
    updateAsset(asset.id, { condition }),
  );
  const shown = asset.condition ? CONDITION_LABEL[asset.condition] : 'Not recorded';
  if (!manage) return <>{shown}</>;

  async function save() {
    const answer = await saving.run(chosen === '' ? null : chosen);
    if (answer) onChanged(answer.value);
  }

  return (
    <div className="inline-form">
      <label htmlFor="condition" className="visually-hidden">
        Condition
      </label>
      <select
        id="condition"
        value={chosen}
        onChange={(event) => setChosen(event.target.value as AssetCondition | '')}
      >
        <ConditionOptions />
      </select>
      <button
        type="button"
        className="button-small"
        disabled={saving.busy || chosen === (asset.condition ?? '')}
        onClick={() => void save()}
      >
        {saving.busy ? 'Saving…' : 'Record condition'}
      </button>
      <ErrorNotice error={saving.error} />
    </div>
  );
}
