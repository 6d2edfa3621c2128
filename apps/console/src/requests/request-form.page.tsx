import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { assetQueries } from '../assets/assets.queries';
import { ErrorNotice } from '../shared/notices';
import { usePageTitle } from '../shared/use-page-title';
import { AssetPicker } from '../assets/asset-picker';
import { PersonPicker } from '../assets/person-picker';
import { RangeFields } from './range-fields';
import { requestRange } from './request-values';
import { useCreateRequest } from './requests.queries';

/**
 * Ask for an asset: a given one (`?asset=<id>` from an asset page) or any of a category, for a
 * person, for now or for a range, with a note for the manager.
 */
export function RequestFormPage() {
  usePageTitle('Ask for an asset');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [assetId, setAssetId] = useState(params.get('asset') ?? '');
  const [what, setWhat] = useState<'asset' | 'category'>('asset');
  const [category, setCategory] = useState('');
  const [personId, setPersonId] = useState('');
  const [when, setWhen] = useState<'now' | 'range'>('range');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const asking = useCreateRequest();
  const arrivedWith = params.get('asset');
  const given = useQuery({ ...assetQueries.detail(arrivedWith ?? ''), enabled: !!arrivedWith });

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!personId) return setProblem('Choose who the asset is for.');
    if (what === 'asset' && !assetId) return setProblem('Choose the asset.');
    if (what === 'category' && !category.trim()) return setProblem('Name the category.');
    const range = requestRange(when, from, to);
    if (typeof range === 'string') return setProblem(range);
    asking.mutate(
      {
        person_id: personId,
        ...(what === 'asset' ? { asset_id: assetId } : { category: category.trim() }),
        ...(range ?? {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      { onSuccess: (made) => void navigate(`/requests/${made.id}`) },
    );
  }

  return (
    <div className="page page-narrow">
      <p className="breadcrumb">
        <Link to="/requests">Requests</Link>
      </p>
      <h1>Ask for an asset</h1>
      <form onSubmit={submit} aria-label="Ask for an asset" className="card">
        <fieldset>
          <legend>What</legend>
          <div className="choice-row">
            <label className="inline">
              <input
                type="radio"
                name="what"
                checked={what === 'asset'}
                onChange={() => setWhat('asset')}
              />
              A given asset
            </label>
            <label className="inline">
              <input
                type="radio"
                name="what"
                checked={what === 'category'}
                onChange={() => setWhat('category')}
              />
              Any asset of a category
            </label>
          </div>
          {what === 'asset' ? (
            given.data && assetId === given.data.id ? (
              <p>
                <strong>{given.data.name}</strong> ({given.data.asset_tag}){' '}
                <button type="button" className="button-small" onClick={() => setAssetId('')}>
                  Choose another
                </button>
              </p>
            ) : (
              <AssetPicker id="request-asset" label="Asset" value={assetId} onChange={setAssetId} />
            )
          ) : (
            <div className="field">
              <label htmlFor="request-category">Category</label>
              <input
                id="request-category"
                value={category}
                maxLength={200}
                placeholder="Cameras"
                onChange={(event) => setCategory(event.target.value)}
              />
            </div>
          )}
        </fieldset>
        <fieldset>
          <legend>For</legend>
          <PersonPicker
            id="request-person"
            label="Person"
            value={personId}
            onChange={setPersonId}
          />
        </fieldset>
        <fieldset>
          <legend>When</legend>
          <div className="choice-row">
            <label className="inline">
              <input
                type="radio"
                name="when"
                checked={when === 'range'}
                onChange={() => setWhen('range')}
              />
              From a date to a date
            </label>
            <label className="inline">
              <input
                type="radio"
                name="when"
                checked={when === 'now'}
                onChange={() => setWhen('now')}
              />
              Now
            </label>
          </div>
          {when === 'range' && (
            <RangeFields
              id="request"
              fromLabel="Needed from"
              from={from}
              to={to}
              onFrom={setFrom}
              onTo={setTo}
            />
          )}
        </fieldset>
        <div className="field">
          <label htmlFor="request-note">Note for the manager</label>
          <textarea
            id="request-note"
            value={note}
            maxLength={2000}
            rows={3}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        {problem && (
          <p className="notice notice-error" role="alert">
            {problem}
          </p>
        )}
        <ErrorNotice error={asking.error} />
        <button type="submit" className="button-primary" disabled={asking.isPending}>
          {asking.isPending ? 'Asking…' : 'Ask'}
        </button>
      </form>
    </div>
  );
}
