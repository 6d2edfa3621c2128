import { LocationField } from '../locations/location-field';
import { type PlaceChoice, placeChoiceOf, placeFields } from '../locations/location-values';
import type {
  Asset,
  AssetChanges,
  AssetCondition,
  AssetInput,
  AssetStatus,
  CustomField,
} from '@custodian/console-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiFailure } from '../api/failure';
import type { Versioned } from '../api/client';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { ConditionOptions, StatusOptions } from './asset-options';
import { type AssetDifference, assetDifferences } from './asset-values';
import { type AssetSave, assetQueries, useSaveAsset } from './assets.queries';
import { customFieldChanges, customFieldTexts } from './custom-field-form';
import { CustomFieldInputs } from './custom-field-inputs';

/** /assets/new and /assets/:id/edit. */
export function AssetFormPage() {
  const { id } = useParams();
  usePageTitle(id ? 'Edit asset' : 'Add asset');
  const fields = useQuery(assetQueries.customFields());
  // Read alongside the fields (an edit needs both); a new asset has none to read. With its
  // ETag: the save names the version it was made to.
  const asset = useQuery({ ...assetQueries.editable(id ?? ''), enabled: id !== undefined });
  // After a conflict, the version the person chose to start again from.
  const [reloaded, setReloaded] = useState<Versioned<Asset> | null>(null);
  return (
    <div className="page page-narrow">
      <p className="breadcrumb">
        <Link to="/assets">Assets</Link>
        {id && (
          <>
            {' / '}
            <Link to={`/assets/${id}`}>Asset</Link>
          </>
        )}
      </p>
      <h1>{id ? 'Edit asset' : 'Add asset'}</h1>
      {id === undefined ? (
        <QueryState query={fields} what="the form">
          {(custom) => <AssetForm asset={null} fields={custom} />}
        </QueryState>
      ) : (
        <QueryState query={asset} what="the asset">
          {(read) => {
            const version = reloaded ?? read;
            return (
              <QueryState query={fields} what="the custom fields">
                {(custom) => (
                  <AssetForm
                    // Starting again from another version is a new form, its fields from that
                    // version. A refetch of the query (a write elsewhere invalidates it) is not:
                    // the form keeps the version it was opened on, which its save names.
                    key={reloaded?.etag ?? 'opened'}
                    asset={version.record}
                    etag={version.etag}
                    fields={custom}
                    onStartAgain={setReloaded}
                  />
                )}
              </QueryState>
            );
          }}
        </QueryState>
      )}
    </div>
  );
}

const TEXT_FIELDS = [
  { name: 'asset_tag', label: 'Asset tag', hint: 'Left empty on a new asset: AT-000001, …' },
  { name: 'serial_number', label: 'Serial number' },
  { name: 'brand', label: 'Brand' },
  { name: 'model', label: 'Model' },
  { name: 'sku', label: 'SKU' },
  { name: 'category', label: 'Category', hint: 'A new name creates the category.' },
] as const;
type TextName = (typeof TEXT_FIELDS)[number]['name'];

function initialText(asset: Asset | null): Record<TextName, string> {
  return {
    asset_tag: asset?.asset_tag ?? '',
    serial_number: asset?.serial_number ?? '',
    brand: asset?.brand ?? '',
    model: asset?.model ?? '',
    sku: asset?.sku ?? '',
    category: asset?.category?.name ?? '',
  };
}

/** Someone else's save came first: what they changed, and what the person can do about it. */
interface Conflict {
  current: Versioned<Asset>;
  differences: AssetDifference[];
}

function AssetForm({
  asset: given,
  etag: givenEtag = null,
  fields,
  onStartAgain,
}: {
  asset: Asset | null;
  etag?: string | null;
  fields: CustomField[];
  onStartAgain?: (version: Versioned<Asset>) => void;
}) {
  // The version the form was opened on, whatever the query reads meanwhile.
  const [{ asset, etag }] = useState(() => ({ asset: given, etag: givenEtag }));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [name, setName] = useState(asset?.name ?? '');
  const [text, setText] = useState(() => initialText(asset));
  const [place, setPlace] = useState<PlaceChoice>(() => placeChoiceOf(asset?.location));
  const [status, setStatus] = useState<AssetStatus>(asset?.status ?? 'active');
  const [condition, setCondition] = useState<AssetCondition | ''>(asset?.condition ?? '');
  const [purchased, setPurchased] = useState(asset?.purchase_date ?? '');
  const [warranty, setWarranty] = useState(asset?.warranty_expires_on ?? '');
  const [custom, setCustom] = useState(() => customFieldTexts(fields, asset?.custom_fields));
  const saving = useSaveAsset();

  /** What the form sends: the changes to the asset, or the new asset's fields. */
  function toSave(base: Asset | null = asset, version: string | null = etag): AssetSave {
    const asset = base;
    const value = (field: TextName) => text[field].trim() || null;
    if (asset) {
      const changes: AssetChanges = {
        name: name.trim(),
        status,
        condition: condition || null,
        serial_number: value('serial_number'),
        brand: value('brand'),
        model: value('model'),
        sku: value('sku'),
        category: value('category'),
        ...placeFields(place, asset.location?.id ?? null),
        purchase_date: purchased || null,
        warranty_expires_on: warranty || null,
      };
      // A tag cannot be removed, only replaced.
      const tag = value('asset_tag');
      if (tag) changes.asset_tag = tag;
      const customChanges = customFieldChanges(fields, custom, asset.custom_fields);
      if (customChanges) changes.custom_fields = customChanges;
      return { id: asset.id, changes, etag: version };
    }
    const input: AssetInput = { name: name.trim(), status };
    if (condition) input.condition = condition;
    if (purchased) input.purchase_date = purchased;
    if (warranty) input.warranty_expires_on = warranty;
    for (const { name: field } of TEXT_FIELDS) {
      const given = value(field);
      if (given) input[field] = given;
    }
    Object.assign(input, placeFields(place, null));
    const customValues = customFieldChanges(fields, custom, null);
    if (customValues) input.custom_fields = customValues;
    return { id: null, input };
  }

  function save(what: AssetSave) {
    saving.mutate(what, {
      onSuccess: (saved) => void navigate(`/assets/${saved.id}`),
      onError: (error) => {
        // 412: saved by someone else since this form was opened. Show what they changed.
        if (!asset || !(error instanceof ApiFailure) || error.status !== 412) return;
        void queryClient.fetchQuery(assetQueries.editable(asset.id)).then(
          (current) =>
            setConflict({ current, differences: assetDifferences(asset, current.record) }),
          () => undefined,
        );
      },
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setConflict(null);
    save(toSave());
  }

  /** The person's values over the version saved meanwhile: sent against that version. */
  function saveOver(current: Versioned<Asset>) {
    setConflict(null);
    save(toSave(current.record, current.etag));
  }

  return (
    <form className="card form-wide" onSubmit={submit}>
      <div className="field">
        <label htmlFor="asset-name">Name</label>
        <input
          id="asset-name"
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      {TEXT_FIELDS.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`asset-${field.name}`}>{field.label}</label>
          <input
            id={`asset-${field.name}`}
            maxLength={field.name === 'asset_tag' ? 64 : 200}
            value={text[field.name]}
            aria-describedby={'hint' in field ? `asset-${field.name}-hint` : undefined}
            onChange={(event) => setText({ ...text, [field.name]: event.target.value })}
          />
          {'hint' in field && (
            <p id={`asset-${field.name}-hint`} className="hint">
              {field.hint}
            </p>
          )}
        </div>
      ))}
      <LocationField id="asset-location" value={place} onChange={setPlace} />
      <div className="field">
        <label htmlFor="asset-status-field">Status</label>
        <select
          id="asset-status-field"
          value={status}
          onChange={(event) => setStatus(event.target.value as AssetStatus)}
        >
          <StatusOptions />
        </select>
      </div>
      <div className="field">
        <label htmlFor="asset-condition">Condition</label>
        <select
          id="asset-condition"
          value={condition}
          onChange={(event) => setCondition(event.target.value as AssetCondition | '')}
        >
          <ConditionOptions />
        </select>
      </div>
      <div className="field">
        <label htmlFor="asset-purchase-date">Purchase date</label>
        <input
          id="asset-purchase-date"
          type="date"
          value={purchased}
          onChange={(event) => setPurchased(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="asset-warranty">Warranty ends</label>
        <input
          id="asset-warranty"
          type="date"
          value={warranty}
          min={purchased || undefined}
          aria-describedby="asset-warranty-hint"
          onChange={(event) => setWarranty(event.target.value)}
        />
        <p id="asset-warranty-hint" className="hint">
          The last day it is covered. Notices go out 30 and 7 days before (Settings → Notices).
        </p>
      </div>
      <CustomFieldInputs fields={fields} texts={custom} onChange={setCustom} />
      {conflict ? (
        <ConflictNotice
          conflict={conflict}
          saving={saving.isPending}
          onSaveOver={() => saveOver(conflict.current)}
          onStartAgain={() => onStartAgain?.(conflict.current)}
        />
      ) : (
        !(saving.error instanceof ApiFailure && saving.error.status === 412) && (
          <ErrorNotice error={saving.error} />
        )
      )}
      <div className="actions">
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : asset ? 'Save changes' : 'Add asset'}
        </button>
        <Link to={asset ? `/assets/${asset.id}` : '/assets'} className="button">
          Cancel
        </Link>
      </div>
    </form>
  );
}

function ConflictNotice({
  conflict,
  saving,
  onSaveOver,
  onStartAgain,
}: {
  conflict: Conflict;
  saving: boolean;
  onSaveOver: () => void;
  onStartAgain: () => void;
}) {
  const { differences } = conflict;
  return (
    <div className="notice notice-warning conflict" role="alert">
      <p>
        <strong>Someone else saved this asset while you were editing it.</strong> Your changes are
        not saved yet.
      </p>
      {differences.length > 0 ? (
        <table className="headers">
          <caption>What they changed</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">When you opened it</th>
              <th scope="col">Now</th>
            </tr>
          </thead>
          <tbody>
            {differences.map((difference) => (
              <tr key={difference.label}>
                <th scope="row">{difference.label}</th>
                <td>{difference.before}</td>
                <td>{difference.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Nothing you can edit here changed (its custody or bookkeeping did).</p>
      )}
      <div className="actions">
        <button type="button" className="button-primary" disabled={saving} onClick={onSaveOver}>
          Save mine over theirs
        </button>
        <button type="button" className="button" onClick={onStartAgain}>
          Start again from their version
        </button>
      </div>
    </div>
  );
}
