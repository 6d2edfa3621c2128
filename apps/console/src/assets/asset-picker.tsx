import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { assetQueries } from './assets.queries';
import { FindBox } from '../shared/find-box';
import { ErrorNotice } from '../shared/notices';

/**
 * Find an asset by name, tag or serial number and choose it: the request form's "a given
 * asset" and the approval's "asset given". With `category`, only the assets found that are of
 * it are offered (a request by category is met with one of its assets; the register checks).
 */
export function AssetPicker({
  id,
  label,
  value,
  onChange,
  category,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (assetId: string) => void;
  category?: string;
}) {
  const [query, setQuery] = useState('');
  const assets = useQuery(
    assetQueries.list({ pageSize: 20, status: 'active', ...(query ? { search: query } : {}) }),
  );
  const found = assets.data?.data ?? [];
  const wanted = category?.toLowerCase();
  const choices = wanted
    ? found.filter((asset) => asset.category?.name.toLowerCase() === wanted)
    : found;
  return (
    <>
      <FindBox
        id={`${id}-search`}
        label="Find an asset"
        placeholder="Name, tag or serial number"
        onFind={setQuery}
      />
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">
            {assets.isPending ? 'Loading assets…' : `Choose (${choices.length} shown)`}
          </option>
          {choices.map((asset) => (
            <option key={asset.id} value={asset.id}>
              {asset.name}
              {asset.category ? ` · ${asset.category.name}` : ''}
              {asset.assigned_to ? ' · checked out' : ''}
            </option>
          ))}
        </select>
        {category && (
          <p className="hint">
            Assets of {category} among the {found.length} found; search by name, tag or serial
            number for others.
          </p>
        )}
        <ErrorNotice error={assets.error} />
      </div>
    </>
  );
}
