import { useQuery } from '@tanstack/react-query';
import { type PlaceChoice, treeLabel } from './location-values';
import { WHOLE_TREE, locationQueries } from './locations.queries';

const NEW = '__new';

/**
 * "Location" on an asset's or a person's form: one of the places, drawn as a tree, none, or a
 * new place by name (created at the top level; Locations files it under another).
 */
export function LocationField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: PlaceChoice;
  onChange: (choice: PlaceChoice) => void;
}) {
  const tree = useQuery(locationQueries.list(WHOLE_TREE));
  const places = tree.data?.data ?? [];
  const selected = value.newName !== null ? NEW : (value.id ?? '');
  return (
    <div className="field">
      <label htmlFor={id}>Location</label>
      <select
        id={id}
        value={selected}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const picked = event.target.value;
          onChange(
            picked === NEW
              ? { id: null, newName: '' }
              : { id: picked === '' ? null : picked, newName: null },
          );
        }}
      >
        <option value="">None</option>
        {/* The place it has, before the tree has loaded (or beyond its first 500). */}
        {value.id && !places.some((place) => place.id === value.id) && (
          <option value={value.id}>Current place</option>
        )}
        {places.map((place) => (
          <option key={place.id} value={place.id}>
            {treeLabel(place)}
          </option>
        ))}
        <option value={NEW}>New place…</option>
      </select>
      {value.newName !== null && (
        <input
          aria-label="New place name"
          required
          maxLength={200}
          autoComplete="off"
          value={value.newName}
          onChange={(event) => onChange({ id: null, newName: event.target.value })}
        />
      )}
      <p id={`${id}-hint`} className="hint">
        A new place goes at the top level; file it under another in Locations.
      </p>
    </div>
  );
}
