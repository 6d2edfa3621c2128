import type { AssetSummary, PersonSummary } from '@custodian/console-client';
import { useQueries, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { getAsset } from '../api/assets.api';
import { ErrorNotice } from '../shared/notices';
import { QUERY_ROOT } from '../shared/query-keys';
import { usePageTitle } from '../shared/use-page-title';
import {
  type BookingForm,
  bookingFormErrors,
  defaultRange,
  fromLocalInput,
} from './booking-values';
import { type BookingPageNotice, CreateFailure } from './booking-parts';
import { bookingQueries, useCreateBooking } from './bookings.queries';

/**
 * A new booking: a person, one or more assets, from and until (the reader's time), notes.
 * `?asset=` and `?person=` prefill it (the asset page's Book, the person page's).
 */
export function BookingFormPage() {
  usePageTitle('New booking');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const prefilledAsset = params.get('asset') ?? '';
  const [form, setForm] = useState<BookingForm>(() => ({
    personId: params.get('person') ?? '',
    assetIds: prefilledAsset ? [prefilledAsset] : [],
    ...defaultRange(),
    notes: '',
  }));
  const [errors, setErrors] = useState<ReturnType<typeof bookingFormErrors>>({});
  const creating = useCreateBooking();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = bookingFormErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    creating.mutate(
      {
        person_id: form.personId,
        asset_ids: form.assetIds,
        starts_at: fromLocalInput(form.startsAt) ?? '',
        ends_at: fromLocalInput(form.endsAt) ?? '',
        notes: form.notes.trim() || null,
      },
      {
        onSuccess: (booking) => {
          const state: BookingPageNotice = {
            notice:
              booking.status === 'requested'
                ? 'Booking requested: it holds its slot until a manager confirms it.'
                : 'Booking made and confirmed.',
          };
          void navigate(`/bookings/${booking.id}`, { state });
        },
      },
    );
  }

  return (
    <div className="page page-narrow">
      <p className="breadcrumb">
        <Link to="/bookings">Bookings</Link>
      </p>
      <h1>New booking</h1>
      <form onSubmit={submit} aria-label="New booking" noValidate>
        <PersonPicker
          value={form.personId}
          error={errors.personId}
          onChange={(personId) => setForm({ ...form, personId })}
        />
        <AssetPicker
          value={form.assetIds}
          error={errors.assetIds}
          onChange={(assetIds) => setForm({ ...form, assetIds })}
        />
        <div className="field-pair">
          <div className="field">
            <label htmlFor="starts-at">From</label>
            <input
              id="starts-at"
              type="datetime-local"
              value={form.startsAt}
              onChange={(event) => setForm({ ...form, startsAt: event.target.value })}
            />
            {errors.startsAt && <p className="field-error">{errors.startsAt}</p>}
          </div>
          <div className="field">
            <label htmlFor="ends-at">Until</label>
            <input
              id="ends-at"
              type="datetime-local"
              value={form.endsAt}
              onChange={(event) => setForm({ ...form, endsAt: event.target.value })}
            />
            {errors.endsAt && <p className="field-error">{errors.endsAt}</p>}
          </div>
        </div>
        <div className="field">
          <label htmlFor="notes">Notes</label>
          <textarea
            id="notes"
            rows={3}
            maxLength={2000}
            value={form.notes}
            onChange={(event) => setForm({ ...form, notes: event.target.value })}
          />
        </div>
        <CreateFailure error={creating.error} />
        <div className="actions">
          <button type="submit" className="button-primary" disabled={creating.isPending}>
            {creating.isPending ? 'Booking…' : 'Book'}
          </button>
          <Link to="/bookings" className="button">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}

function PersonPicker({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (id: string) => void;
}) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const people = useQuery(bookingQueries.people(query));
  const choices: PersonSummary[] = people.data?.data ?? [];
  return (
    <div className="field">
      <label htmlFor="booking-person">For</label>
      <div className="inline-form">
        <input
          type="search"
          aria-label="Find a person"
          value={search}
          maxLength={200}
          placeholder="Find a person"
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              setQuery(search.trim());
            }
          }}
        />
        <button type="button" className="button-small" onClick={() => setQuery(search.trim())}>
          Find
        </button>
      </div>
      <select id="booking-person" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">
          {people.isPending ? 'Loading people…' : `Choose (${choices.length} shown)`}
        </option>
        {value && !choices.some((person) => person.id === value) && (
          <option value={value}>{value}</option>
        )}
        {choices.map((person) => (
          <option key={person.id} value={person.id}>
            {person.full_name}
            {person.email ? ` (${person.email})` : ''}
          </option>
        ))}
      </select>
      <ErrorNotice error={people.error} />
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

function AssetPicker({
  value,
  error,
  onChange,
}: {
  value: string[];
  error: string | undefined;
  onChange: (ids: string[]) => void;
}) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const assets = useQuery(bookingQueries.assets(query));
  const [known, setKnown] = useState<Record<string, AssetSummary>>({});
  const choices: AssetSummary[] = assets.data?.data ?? [];
  const toggle = (asset: AssetSummary, on: boolean) => {
    setKnown({ ...known, [asset.id]: asset });
    onChange(on ? [...value, asset.id] : value.filter((id) => id !== asset.id));
  };
  const chosenElsewhere = value.filter((id) => !choices.some((asset) => asset.id === id));
  // Chosen but not in the list shown (prefilled, or found by another search): their names.
  const fetched = useQueries({
    queries: chosenElsewhere
      .filter((id) => !known[id])
      .map((id) => ({
        queryKey: [QUERY_ROOT.assets, 'detail', id],
        queryFn: () => getAsset(id),
      })),
  });
  const nameOf = (id: string) => {
    const asset = known[id] ?? fetched.find((result) => result.data?.id === id)?.data;
    return asset?.name ?? id;
  };
  return (
    <fieldset className="field">
      <legend>Assets</legend>
      <div className="inline-form">
        <input
          type="search"
          aria-label="Find assets"
          value={search}
          maxLength={200}
          placeholder="Find by name, tag or serial number"
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              setQuery(search.trim());
            }
          }}
        />
        <button type="button" className="button-small" onClick={() => setQuery(search.trim())}>
          Find
        </button>
      </div>
      {chosenElsewhere.length > 0 && (
        <ul className="check-list">
          {chosenElsewhere.map((id) => (
            <li key={id}>
              <label className="inline">
                <input
                  type="checkbox"
                  checked
                  onChange={() => onChange(value.filter((chosen) => chosen !== id))}
                />
                {nameOf(id)}
              </label>
            </li>
          ))}
        </ul>
      )}
      <ul className="check-list">
        {assets.isPending && <li className="muted">Loading assets…</li>}
        {!assets.isPending && choices.length === 0 && <li className="muted">No asset matches.</li>}
        {choices.map((asset) => (
          <li key={asset.id}>
            <label className="inline">
              <input
                type="checkbox"
                checked={value.includes(asset.id)}
                onChange={(event) => toggle(asset, event.target.checked)}
              />
              {asset.name}
              {asset.serial_number && (
                <span className="muted mono small"> {asset.serial_number}</span>
              )}
            </label>
          </li>
        ))}
      </ul>
      <p className="hint">{value.length} chosen.</p>
      <ErrorNotice error={assets.error} />
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}
