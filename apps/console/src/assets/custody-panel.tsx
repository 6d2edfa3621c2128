import type { Asset } from '@custodian/console-client';
import { type FormEvent, useState } from 'react';
import { formatDateTime } from '../shared/format';
import { ErrorNotice } from '../shared/notices';
import { defaultDueDate, dueDateToSend } from './asset-values';
import { useSaveAsset } from './assets.queries';
import { PersonPicker } from './person-picker';

/**
 * Who holds the asset. Checked out: the holder, since when, the due date, and Check in.
 * In stock: a form to check it out to an active person, with an optional due date.
 */
export function CustodyPanel({ asset, manage }: { asset: Asset; manage: boolean }) {
  const checkingIn = useSaveAsset();
  // When the panel was shown: whether the due date has passed is read against it.
  const [shownAt] = useState(Date.now);
  const custody = asset.custody;

  function checkIn() {
    checkingIn.mutate({ id: asset.id, changes: { assigned_to_id: null } });
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
                {new Date(custody.due_at).getTime() < shownAt && (
                  <span className="badge badge-failed">Overdue</span>
                )}
              </>
            ) : (
              <span className="muted">No due date.</span>
            )}
          </p>
          {manage && (
            <button type="button" onClick={checkIn} disabled={checkingIn.isPending}>
              {checkingIn.isPending ? 'Checking in…' : 'Check in'}
            </button>
          )}
          <ErrorNotice error={checkingIn.error} />
        </>
      ) : (
        <>
          <p className="muted">In stock: nobody holds it.</p>
          {manage && <CheckOutForm asset={asset} />}
        </>
      )}
    </section>
  );
}

function CheckOutForm({ asset }: { asset: Asset }) {
  const [personId, setPersonId] = useState('');
  const [withDue, setWithDue] = useState(true);
  const [due, setDue] = useState(() => defaultDueDate(new Date()));
  const [problem, setProblem] = useState<string | null>(null);
  const checkingOut = useSaveAsset();

  function submit(event: FormEvent) {
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
    checkingOut.mutate({ id: asset.id, changes: { assigned_to_id: personId, due_at: dueAt } });
  }

  return (
    <form onSubmit={submit} aria-label="Check out">
      <PersonPicker id="person" label="Check out to" value={personId} onChange={setPersonId} />
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
      <button type="submit" className="button-primary" disabled={checkingOut.isPending}>
        {checkingOut.isPending ? 'Checking out…' : 'Check out'}
      </button>
    </form>
  );
}
