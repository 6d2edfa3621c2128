import type { Maintenance, MaintenanceType } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { MaintenanceTable } from './maintenance-parts';
import {
  EMPTY_FORM,
  MAINTENANCE_TYPES,
  TYPE_LABEL,
  maintenanceInput,
  resolution,
  type MaintenanceForm,
} from './maintenance-values';
import {
  maintenanceQueries,
  useLogMaintenance,
  useResolveMaintenance,
} from './maintenance.queries';

const SHOWN = 20;

/**
 * The maintenance records of one asset on its page, newest first; with `manage`, a form to log
 * one (optionally putting the asset in maintenance) and Resolve on each open one.
 */
export function MaintenanceSection({ assetId, manage }: { assetId: string; manage: boolean }) {
  const records = useQuery(
    maintenanceQueries.ofAsset(assetId, { page: '1', pageSize: String(SHOWN) }),
  );
  const [resolving, setResolving] = useState<Maintenance | null>(null);
  return (
    <section className="card" aria-labelledby="maintenance-section">
      <div className="page-head">
        <h2 id="maintenance-section">Maintenance</h2>
        <div className="actions">
          <Link to="/maintenance">All maintenance</Link>
        </div>
      </div>
      <QueryState query={records} what="maintenance records">
        {(found) => (
          <>
            <MaintenanceTable
              records={found.data}
              empty="No maintenance logged."
              showAsset={false}
              {...(manage
                ? {
                    action: (record: Maintenance) =>
                      record.status === 'open' && (
                        <button
                          type="button"
                          className="button-small"
                          aria-label={`Resolve ${record.title}`}
                          onClick={() => setResolving(record)}
                        >
                          Resolve
                        </button>
                      ),
                  }
                : {})}
            />
            {found.total > found.data.length && (
              <p className="hint">
                The latest {found.data.length} of {found.total}.
              </p>
            )}
          </>
        )}
      </QueryState>
      {manage && resolving && <ResolveForm record={resolving} onDone={() => setResolving(null)} />}
      {manage && <LogForm assetId={assetId} />}
    </section>
  );
}

function ResolveForm({ record, onDone }: { record: Maintenance; onDone: () => void }) {
  const [notes, setNotes] = useState('');
  const [cost, setCost] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const resolving = useResolveMaintenance();

  function submit(event: FormEvent) {
    event.preventDefault();
    const built = resolution(notes, cost);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    setProblem(null);
    resolving.mutate({ id: record.id, resolution: built.resolution }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={submit} aria-label={`Resolve ${record.title}`}>
      <h3>Resolve “{record.title}”</h3>
      {record.asset_status_before && (
        <p className="hint">The asset goes back to {record.asset_status_before}.</p>
      )}
      <div className="field">
        <label htmlFor="resolve-notes">What was done</label>
        <textarea
          id="resolve-notes"
          rows={2}
          maxLength={2000}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="resolve-cost">Final cost</label>
        <input
          id="resolve-cost"
          inputMode="decimal"
          placeholder={record.cost ?? '189.00'}
          value={cost}
          onChange={(event) => setCost(event.target.value)}
        />
        <p className="hint">Empty keeps the cost logged.</p>
      </div>
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={resolving.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={resolving.isPending}>
          {resolving.isPending ? 'Resolving…' : 'Resolve'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function LogForm({ assetId }: { assetId: string }) {
  const [form, setForm] = useState<MaintenanceForm>(EMPTY_FORM);
  const [problem, setProblem] = useState<string | null>(null);
  const logging = useLogMaintenance();
  const set = <K extends keyof MaintenanceForm>(key: K, value: MaintenanceForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const built = maintenanceInput(form);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    setProblem(null);
    logging.mutate({ assetId, input: built.input }, { onSuccess: () => setForm(EMPTY_FORM) });
  }

  return (
    <form onSubmit={submit} aria-label="Log maintenance">
      <h3>Log maintenance</h3>
      <div className="field">
        <label htmlFor="maintenance-title">Title</label>
        <input
          id="maintenance-title"
          required
          maxLength={200}
          value={form.title}
          onChange={(event) => set('title', event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="maintenance-type">Type</label>
        <select
          id="maintenance-type"
          value={form.type}
          onChange={(event) => set('type', event.target.value as MaintenanceType)}
        >
          {MAINTENANCE_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABEL[type]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="maintenance-scheduled">Scheduled for</label>
        <input
          id="maintenance-scheduled"
          type="date"
          value={form.scheduledFor}
          onChange={(event) => set('scheduledFor', event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="maintenance-cost">Cost</label>
        <input
          id="maintenance-cost"
          inputMode="decimal"
          placeholder="189.00"
          value={form.cost}
          onChange={(event) => set('cost', event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="maintenance-notes">Notes</label>
        <textarea
          id="maintenance-notes"
          rows={2}
          maxLength={2000}
          value={form.notes}
          onChange={(event) => set('notes', event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="maintenance-repeat">Remind again every (months)</label>
        <input
          id="maintenance-repeat"
          type="number"
          min={1}
          max={365}
          aria-describedby="maintenance-repeat-hint"
          value={form.repeatMonths}
          onChange={(event) => set('repeatMonths', event.target.value)}
        />
        <p id="maintenance-repeat-hint" className="hint">
          Empty: no reminder. A number makes a repeating reminder about this asset.
        </p>
      </div>
      <div className="field">
        <label className="inline">
          <input
            type="checkbox"
            checked={form.setAssetStatus}
            onChange={(event) => set('setAssetStatus', event.target.checked)}
          />
          Put the asset in maintenance until this is resolved
        </label>
      </div>
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={logging.error} />
      <button type="submit" className="button-primary" disabled={logging.isPending}>
        {logging.isPending ? 'Logging…' : 'Log maintenance'}
      </button>
    </form>
  );
}
