import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FindBox } from '../shared/find-box';
import { ErrorNotice } from '../shared/notices';
import { assetQueries } from './assets.queries';

/**
 * Find an active person by name, e-mail or employee number and choose them: the check-out's
 * "Check out to", a request's person, a licence seat's holder. `id` names the select (its
 * label is `label`); the search box is labelled "Find a person".
 */
export function PersonPicker({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (personId: string) => void;
}) {
  const [query, setQuery] = useState('');
  const people = useQuery(assetQueries.custodians(query));
  const choices = people.data?.data ?? [];
  return (
    <>
      <FindBox
        id={`${id}-search`}
        label="Find a person"
        placeholder="Name, e-mail or employee number"
        onFind={setQuery}
      />
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">
            {people.isPending ? 'Loading people…' : `Choose (${choices.length} shown)`}
          </option>
          {choices.map((person) => (
            <option key={person.id} value={person.id}>
              {person.full_name}
              {person.email ? ` (${person.email})` : ''}
            </option>
          ))}
        </select>
        <ErrorNotice error={people.error} />
      </div>
    </>
  );
}
