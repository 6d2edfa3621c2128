import type { Asset, AssetCondition } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ActivityList } from '../activity/activity-list';
import { BookingsSection } from '../bookings/bookings-section';
import { MaintenanceSection } from '../maintenance/maintenance-section';
import { HeldSeats } from '../shared/held-seats';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { ExpiryBadge } from '../shared/expiry-badge';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { ConditionOptions } from './asset-options';
import { CONDITION_LABEL, STATUS_LABEL } from './asset-values';
import { assetQueries, useDeleteAsset, useSaveAsset } from './assets.queries';
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
  const asset = useQuery(assetQueries.detail(id));

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/assets">Assets</Link>
      </p>
      {arrived && <Notice tone="success">{arrived}</Notice>}
      <QueryState query={asset} what="the asset">
        {(shown) => <AssetDetails asset={shown} />}
      </QueryState>
    </div>
  );
}

function AssetDetails({ asset }: { asset: Asset }) {
  const { session } = useSession();
  const manage = can(session, 'assets.manage');
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const deleting = useDeleteAsset();

  function remove() {
    deleting.mutate(asset.id, {
      onSuccess: (deleted) => {
        const state: AssetPageNotice = {
          notice: deleted.purge_at
            ? `“${asset.name}” is in the bin. Restore it from here until ${formatDateTime(deleted.purge_at)}, when it is purged for good.`
            : `“${asset.name}” is in the bin. Restore it from here at any time.`,
        };
        void navigate('/assets/bin', { state });
      },
    });
  }

  return (
    <>
      <div className="page-head">
        <h1>{asset.name}</h1>
        <span className={`badge badge-status-${asset.status}`}>{STATUS_LABEL[asset.status]}</span>
      </div>
      <div className="actions">
        {can(session, 'bookings.request') && (
          <Link to={`/bookings/new?asset=${asset.id}`} className="button">
            Book
          </Link>
        )}
        <Link to={`/assets/${asset.id}/label`} className="button">
          Label
        </Link>
        {can(session, 'reminders.view') && (
          <Link to={`/reminders?asset=${asset.id}`} className="button">
            Reminders
          </Link>
        )}
        {can(session, 'reminders.manage') && (
          <Link to={`/reminders/new?asset=${asset.id}`} className="button">
            Add reminder
          </Link>
        )}
        {can(session, 'requests.view') && asset.status === 'active' && (
          <Link to={`/requests/new?asset=${asset.id}`} className="button">
            Ask for it
          </Link>
        )}
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
              deleting.reset();
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
        <dd>
          {asset.location ? (
            <Link to={`/locations/${asset.location.id}`}>{asset.location.name}</Link>
          ) : (
            <span className="muted">None</span>
          )}
        </dd>
        <dt>Condition</dt>
        <dd>
          <ConditionField asset={asset} manage={manage} />
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

      <CustodyPanel asset={asset} manage={manage} />

      <section className="card" aria-labelledby="asset-warranty">
        <div className="page-head">
          <h2 id="asset-warranty">Warranty</h2>
          <ExpiryBadge expiresOn={asset.warranty_expires_on} none="No warranty recorded" />
        </div>
        <dl className="details">
          <dt>Purchased</dt>
          <dd>{asset.purchase_date ?? <span className="muted">Not recorded</span>}</dd>
          <dt>Warranty ends</dt>
          <dd>{asset.warranty_expires_on ?? <span className="muted">Not recorded</span>}</dd>
        </dl>
        {manage && (
          <p className="hint">
            <Link to={`/assets/${asset.id}/edit`}>Change the dates</Link>
          </p>
        )}
      </section>

      {can(session, 'bookings.view') && <BookingsSection assetId={asset.id} />}
      {can(session, 'maintenance.view') && (
        <MaintenanceSection assetId={asset.id} manage={can(session, 'maintenance.manage')} />
      )}

      {can(session, 'licenses.view') && asset.seats.length > 0 && <HeldSeats seats={asset.seats} />}

      <section className="card" aria-labelledby="asset-history">
        <h2 id="asset-history">History</h2>
        <ActivityList query={{ record_id: asset.id }} showRecord={false} />
      </section>

      <ConfirmDialog
        open={confirming}
        title="Delete this asset?"
        confirmLabel="Move to the bin"
        danger
        busy={deleting.isPending}
        error={deleting.error}
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      >
        <p>
          “{asset.name}” (<span className="mono">{asset.asset_tag}</span>) leaves the asset list and
          the API answers 404 for it until someone restores it from the bin, where it stays for a
          limited time before it is purged for good.
          {asset.assigned_to &&
            ` It is checked out to ${asset.assigned_to.name}: check it in first.`}
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The condition, and for those who may change assets a select that records a new one. */
function ConditionField({ asset, manage }: { asset: Asset; manage: boolean }) {
  const [chosen, setChosen] = useState<AssetCondition | ''>(asset.condition ?? '');
  const saving = useSaveAsset();
  const shown = asset.condition ? CONDITION_LABEL[asset.condition] : 'Not recorded';
  if (!manage) return <>{shown}</>;

  function save() {
    saving.mutate({ id: asset.id, changes: { condition: chosen === '' ? null : chosen } });
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
        disabled={saving.isPending || chosen === (asset.condition ?? '')}
        onClick={save}
      >
        {saving.isPending ? 'Saving…' : 'Record condition'}
      </button>
      <ErrorNotice error={saving.error} />
    </div>
  );
}
