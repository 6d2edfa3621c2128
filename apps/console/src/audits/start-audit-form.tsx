import type { Audit, AuditInput } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { fromLocalInput } from '../bookings/booking-values';
import { categoryQueries } from '../categories/categories.queries';
import { treeLabel } from '../locations/location-values';
import { WHOLE_TREE, locationQueries } from '../locations/locations.queries';
import { ErrorNotice } from '../shared/notices';
import { useStartAudit } from './audits.queries';

type Scope = 'location' | 'category';

/**
 * Start an audit: a name, what it covers (a place, with or without the places in it, or a
 * category; a list of assets is the API's), and an optional due date. The expected assets are
 * fixed when it starts.
 */
export function StartAuditForm({
  locationId = '',
  onStarted,
  onCancel,
}: {
  locationId?: string;
  onStarted: (audit: Audit) => void;
  onCancel: () => void;
}) {
  const tree = useQuery(locationQueries.list(WHOLE_TREE));
  const categories = useQuery(categoryQueries.list({ page: '1', pageSize: '500' }));
  const starting = useStartAudit();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('location');
  const [place, setPlace] = useState(locationId);
  const [children, setChildren] = useState(true);
  const [category, setCategory] = useState('');
  const [due, setDue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input: AuditInput = { name: name.trim() };
    if (scope === 'location') {
      if (!place) return setProblem('Choose the location to audit.');
      input.location_id = place;
      input.include_children = children;
    } else {
      if (!category) return setProblem('Choose the category to audit.');
      input.category_id = category;
    }
    if (due) {
      const dueAt = fromLocalInput(due);
      if (!dueAt) return setProblem('Give the due date as a date and time.');
      input.due_at = dueAt;
    }
    starting.mutate(input, { onSuccess: onStarted });
  }

  return (
    <form onSubmit={submit} aria-label="Start audit">
      <div className="field">
        <label htmlFor="audit-name">Name</label>
        <input
          id="audit-name"
          required
          maxLength={200}
          placeholder="Q4 stock-take, 2nd floor"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <fieldset className="field">
        <legend>What to audit</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="audit-scope"
            checked={scope === 'location'}
            onChange={() => setScope('location')}
          />{' '}
          A location
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="audit-scope"
            checked={scope === 'category'}
            onChange={() => setScope('category')}
          />{' '}
          A category
        </label>
      </fieldset>
      {scope === 'location' ? (
        <>
          <div className="field">
            <label htmlFor="audit-location">Location</label>
            <select
              id="audit-location"
              value={place}
              onChange={(event) => setPlace(event.target.value)}
            >
              <option value="">Choose…</option>
              {(tree.data?.data ?? []).map((option) => (
                <option key={option.id} value={option.id}>
                  {treeLabel(option)}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={children}
              onChange={(event) => setChildren(event.target.checked)}
            />{' '}
            Include the places in it
          </label>
        </>
      ) : (
        <div className="field">
          <label htmlFor="audit-category">Category</label>
          <select
            id="audit-category"
            value={category}
            onChange={(event) => setCategory(event.target.value)}
          >
            <option value="">Choose…</option>
            {(categories.data?.data ?? []).map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor="audit-due">Due (optional)</label>
        <input
          id="audit-due"
          type="datetime-local"
          value={due}
          onChange={(event) => setDue(event.target.value)}
        />
      </div>
      {problem && <p className="field-error">{problem}</p>}
      <ErrorNotice error={starting.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={starting.isPending}>
          {starting.isPending ? 'Starting…' : 'Start audit'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
