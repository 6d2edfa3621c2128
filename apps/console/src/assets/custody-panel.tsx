import type { Asset, PersonSummary } from '@custodian/console-client';
import { type FormEvent, useState } from 'react';
import { findPeople, updateAsset } from '../api/assets.api';
import { formatDateTime } from '../shared/format';
import { ErrorNotice } from '../shared/notices';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { defaultDueDate, dueDateToSend } from './asset-values';

/**
 * Who holds the asset. Checked out: the holder, since when, the due date, and Check in.
 * In stock: a form to check it out to an active person, with an optional due date.
 */
export function CustodyPanel({
  asset,
  manage,
  onChanged,
}: {
  asset: Asset;
  manage: boolean;
  onChanged: (asset: Asset) => void;
}) {
  const checkingIn = useAction(() => updateAsset(asset.id, { assigned_to_id: null }));
  const custody = asset.custody;

  async function checkIn() {
    const answer = await checkingIn.run();
    if (answer) onChanged(answer.value);
  }

  return (
    <section className="card" aria-labelledby="custody-title">
      <h2 id="custody-title">Custody</h2>
      {custody ? (
        <>
          <p>
            Checked out to <strong>{custody.person.name}</strong> since{' '}
            {formatDateTime(custody.since)}.
          </p>
          <p>
            {custody.due_at ? (
              <>
                Due back {formatDateTime(custody.due_at)}
                {new Date(custody.due_at).getTime() < Date.now() && (
                  <span className="badge badge-failed">Overdue</span>
                )}
              </>
            ) : (
              <span className="muted">No due date.</span>
            )}
          </p>
          {manage && (
            <button type="button" onClick={() => void checkIn()} disabled={checkingIn.busy}>
              {checkingIn.busy ? 'Checking in…' : 'Check in'}
            </button>
          )}
          <ErrorNotice error={checkingIn.error} />
        </>
      ) : (
        <>
          <p className="muted">In stock: nobody holds it.</p>
          {manage && <CheckOutForm asset={asset} onChanged={onChanged} />}
        </>
      )}
    </section>
  );
}

function CheckOutForm({ asset, onChanged }: { asset: Asset; onChanged: (asset: Asset) => void }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [people] = useLoad(() => findPeople(query), [query]);
  const [personId, setPersonId] = useState('');
  const [withDue, setWithDue] = useState(true);
  const [due, setDue] = useState(() => defaultDueDate(new Date()));
  const [problem, setProblem] = useState<string | null>(null);
  const checkingOut = useAction((person: string, dueAt: string | null) =>
    updateAsset(asset.id, { assigned_to_id: person, due_at: dueAt }),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!personId) {
      setProblem('Choose the person to check the asset out to.');
      return;
    }
    const dueAt = withDue ? dueDateToSend(due) : null;
    if (withDue && dueAt === null) {
      setProblem('The due date is not a date and time.');
      return;
    }
    const answer = await checkingOut.run(personId, dueAt);
    if (answer) onChanged(answer.value);
  }

  const choices: PersonSummary[] = people.status === 'ready' ? people.data.data : [];

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Check out">
      <div className="field">
        <label htmlFor="person-search">Find a person</label>
        <div className="inline-form">
          <input
            id="person-search"
            type="search"
            value={search}
            maxLength={200}
            placeholder="Name, e-mail or employee number"
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
      </div>
      <div className="field">
        <label htmlFor="person">Check out to</label>
        <select id="person" value={personId} onChange={(event) => setPersonId(event.target.value)}>
          <option value="">
            {people.status === 'loading' ? 'Loading people…' : `Choose (${choices.length} shown)`}
          </option>
          {choices.map((person) => (
            <option key={person.id} value={person.id}>
              {person.full_name}
              {person.email ? ` (${person.email})` : ''}
            </option>
          ))}
        </select>
        {people.status === 'failed' && <ErrorNotice error={people.error} />}
      </div>
      <div className="field">
        <label className="inline">
          <input
            type="checkbox"
            checked={withDue}
            onChange={(event) => setWithDue(event.target.checked)}
          />
          Due back on a date
        </label>
        {withDue && (
          <>
            <label htmlFor="due-at" className="visually-hidden">
              Due back
            </label>
            <input
              id="due-at"
              type="datetime-local"
              value={due}
              onChange={(event) => setDue(event.target.value)}
            />
            <p className="hint">
              In your time zone. Once it passes with the asset still out, the
              <code> assignment.overdue</code> webhook fires.
            </p>
          </>
        )}
      </div>
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={checkingOut.error} />
      <button type="submit" className="button-primary" disabled={checkingOut.busy}>
        {checkingOut.busy ? 'Checking out…' : 'Check out'}
      </button>
    </form>
  );
}
