import type { AssetStatus } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { categoryQueries } from '../categories/categories.queries';
import { LocationField } from '../locations/location-field';
import type { PlaceChoice } from '../locations/location-values';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { Dialog } from '../shared/dialog';
import { ErrorNotice, Notice } from '../shared/notices';
import { StatusOptions } from './asset-options';
import { defaultDueDate, dueDateToSend } from './asset-values';
import {
  BULK_MAX,
  type BulkChoice,
  type BulkSummary,
  type Selection,
  bulkBody,
  bulkSummary,
} from './asset-bulk-values';
import { useBulkChangeAssets } from './assets.queries';
import { PersonPicker } from './person-picker';

type Asking = BulkChoice['action'] | null;

const TITLES: Record<BulkChoice['action'], string> = {
  status: 'Change status',
  location: 'Move to location',
  category: 'Change category',
  check_out: 'Check out to',
  check_in: 'Check in',
  delete: 'Move to bin',
};

/**
 * The asset list's bulk actions, for the rows chosen (on any page): one change to all of them
 * in one request, then what became of each (the refusals with their reasons).
 */
export function AssetBulkBar({
  selection,
  onClear,
}: {
  selection: Selection;
  onClear: () => void;
}) {
  const bulk = useBulkChangeAssets();
  const [asking, setAsking] = useState<Asking>(null);
  const [summary, setSummary] = useState<BulkSummary | null>(null);
  const count = selection.size;
  const tooMany = count > BULK_MAX;

  function ask(action: BulkChoice['action']) {
    bulk.reset();
    setAsking(action);
  }

  function apply(choice: BulkChoice) {
    const names = new Map(selection);
    bulk.mutate(bulkBody([...selection.keys()], choice), {
      onSuccess: (reply) => {
        setSummary(bulkSummary(reply, names));
        setAsking(null);
        onClear();
      },
    });
  }

  return (
    <>
      {summary && (
        <section className="bulk-summary" aria-label="Result of the bulk action">
          <Notice tone={summary.problems.length > 0 ? 'warning' : 'success'}>
            <p>{summary.headline}</p>
            {summary.problems.length > 0 && (
              <ul>
                {summary.problems.map((problem) => (
                  <li key={problem.id}>
                    <strong>{problem.name}</strong>: {problem.message}
                  </li>
                ))}
              </ul>
            )}
            <button type="button" onClick={() => setSummary(null)}>
              Dismiss
            </button>
          </Notice>
        </section>
      )}
      {count > 0 && (
        <div className="bulk-bar actions" role="region" aria-label="Bulk actions">
          <strong aria-live="polite">{count} selected</strong>
          {tooMany && <span className="notice-error">At most {BULK_MAX} assets at a time.</span>}
          {(['status', 'location', 'category', 'check_out', 'check_in'] as const).map((action) => (
            <button key={action} type="button" disabled={tooMany} onClick={() => ask(action)}>
              {TITLES[action]}
            </button>
          ))}
          <button
            type="button"
            className="button-danger"
            disabled={tooMany}
            onClick={() => ask('delete')}
          >
            {TITLES.delete}
          </button>
          <button type="button" onClick={onClear}>
            Clear selection
          </button>
        </div>
      )}
      {asking !== null && asking !== 'check_in' && asking !== 'delete' && (
        <Dialog
          open
          title={`${TITLES[asking]}: ${count} ${count === 1 ? 'asset' : 'assets'}`}
          onClose={() => setAsking(null)}
        >
          <BulkForm
            action={asking}
            busy={bulk.isPending}
            error={bulk.error}
            onApply={apply}
            onCancel={() => setAsking(null)}
          />
        </Dialog>
      )}
      <ConfirmDialog
        open={asking === 'check_in' || asking === 'delete'}
        title={`${asking === 'delete' ? 'Move to bin' : 'Check in'}: ${count} ${count === 1 ? 'asset' : 'assets'}`}
        confirmLabel={asking === 'delete' ? 'Move to bin' : 'Check in'}
        danger={asking === 'delete'}
        busy={bulk.isPending}
        error={bulk.error}
        onConfirm={() => apply(asking === 'delete' ? { action: 'delete' } : { action: 'check_in' })}
        onClose={() => setAsking(null)}
      >
        <p>
          {asking === 'delete'
            ? 'The chosen assets leave the lists until restored from the bin. Assets checked ' +
              'out are refused: check them in first.'
            : 'The chosen assets that are checked out come back into stock.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The one field an action asks for, then Apply. */
function BulkForm({
  action,
  busy,
  error,
  onApply,
  onCancel,
}: {
  action: 'status' | 'location' | 'category' | 'check_out';
  busy: boolean;
  error: unknown;
  onApply: (choice: BulkChoice) => void;
  onCancel: () => void;
}) {
  const [status, setStatus] = useState<AssetStatus>('active');
  const [place, setPlace] = useState<PlaceChoice>({ id: null, newName: null });
  const [categoryId, setCategoryId] = useState('');
  const [personId, setPersonId] = useState('');
  // As the single check-out: due back on a date unless unticked.
  const [withDue, setWithDue] = useState(true);
  const [due, setDue] = useState(() => defaultDueDate(new Date()));
  const [problem, setProblem] = useState<string | null>(null);
  const categories = useQuery({
    ...categoryQueries.list({ page: '1', pageSize: '500' }),
    enabled: action === 'category',
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (action === 'status') onApply({ action, status });
    else if (action === 'location') onApply({ action, place });
    else if (action === 'category') onApply({ action, categoryId: categoryId || null });
    else if (personId) {
      const dueAt = withDue ? dueDateToSend(due) : null;
      if (withDue && dueAt === null) setProblem('The due date is not a date and time.');
      else onApply({ action, personId, dueAt });
    }
  }

  return (
    <form onSubmit={submit}>
      {action === 'status' && (
        <div className="field">
          <label htmlFor="bulk-status">New status</label>
          <select
            id="bulk-status"
            value={status}
            onChange={(event) => setStatus(event.target.value as AssetStatus)}
          >
            <StatusOptions />
          </select>
        </div>
      )}
      {action === 'location' && (
        <LocationField id="bulk-location" value={place} onChange={setPlace} />
      )}
      {action === 'category' && (
        <div className="field">
          <label htmlFor="bulk-category">Category</label>
          <select
            id="bulk-category"
            value={categoryId}
            onChange={(event) => setCategoryId(event.target.value)}
          >
            <option value="">None</option>
            {(categories.data?.data ?? []).map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
          <ErrorNotice error={categories.error} />
        </div>
      )}
      {action === 'check_out' && (
        <>
          <PersonPicker
            id="bulk-person"
            label="Check out to"
            value={personId}
            onChange={setPersonId}
          />
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
                <label htmlFor="bulk-due-at" className="visually-hidden">
                  Due back
                </label>
                <input
                  id="bulk-due-at"
                  type="datetime-local"
                  value={due}
                  onChange={(event) => setDue(event.target.value)}
                />
              </>
            )}
          </div>
        </>
      )}
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="button-primary"
          disabled={busy || (action === 'check_out' && !personId)}
        >
          {busy ? 'Working…' : 'Apply'}
        </button>
      </div>
    </form>
  );
}
