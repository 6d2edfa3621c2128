import type { Location } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../shared/notices';
import { possibleParents, treeLabel } from './location-values';
import { WHOLE_TREE, locationQueries, useSaveLocation } from './locations.queries';

/**
 * A place's name, where it is (the parent, as a tree of the places it may go in), address and
 * notes: adds one (`place` null, optionally inside `parentId`) or changes one.
 */
export function LocationForm({
  place,
  parentId = '',
  onSaved,
  onCancel,
}: {
  place: Location | null;
  parentId?: string;
  onSaved: (saved: Location) => void;
  onCancel: () => void;
}) {
  const tree = useQuery(locationQueries.list(WHOLE_TREE));
  const saving = useSaveLocation();
  const [name, setName] = useState(place?.name ?? '');
  const [parent, setParent] = useState(place ? (place.parent?.id ?? '') : parentId);
  const [address, setAddress] = useState(place?.address ?? '');
  const [notes, setNotes] = useState(place?.notes ?? '');
  const parents = possibleParents(tree.data?.data ?? [], place);

  function submit(event: FormEvent) {
    event.preventDefault();
    const fields = {
      name: name.trim(),
      parent_id: parent || null,
      address: address.trim() || null,
      notes: notes.trim() || null,
    };
    saving.mutate(place ? { id: place.id, changes: fields } : { id: null, input: fields }, {
      onSuccess: onSaved,
    });
  }

  return (
    <form onSubmit={submit} aria-label={place ? 'Change location' : 'Add location'}>
      <div className="field">
        <label htmlFor="location-name">Name</label>
        <input
          id="location-name"
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="location-parent">Inside</label>
        <select
          id="location-parent"
          value={parent}
          onChange={(event) => setParent(event.target.value)}
        >
          <option value="">Nothing (top level)</option>
          {parents.map((option) => (
            <option key={option.id} value={option.id}>
              {treeLabel(option)}
            </option>
          ))}
        </select>
        {place && <p className="hint">Moving a place moves everything in it.</p>}
      </div>
      <div className="field">
        <label htmlFor="location-address">Address</label>
        <input
          id="location-address"
          maxLength={500}
          value={address}
          onChange={(event) => setAddress(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="location-notes">Notes</label>
        <textarea
          id="location-notes"
          maxLength={2000}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      <ErrorNotice error={saving.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : place ? 'Save changes' : 'Add location'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
