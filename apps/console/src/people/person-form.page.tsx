import { LocationField } from '../locations/location-field';
import type { Person, PersonStatus } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { personQueries, useSavePerson } from './people.queries';
import type { PersonPageNotice } from './person.page';
import {
  PERSON_STATUSES,
  PERSON_STATUS_LABEL,
  formOf,
  personChanges,
  personInput,
} from './person-values';

/** /people/new and /people/:id/edit. */
export function PersonFormPage() {
  const { id } = useParams();
  usePageTitle(id ? 'Edit person' : 'Add person');
  const person = useQuery({ ...personQueries.detail(id ?? ''), enabled: id !== undefined });
  return (
    <div className="page page-narrow">
      <p className="breadcrumb">
        <Link to="/people">People</Link>
        {id && (
          <>
            {' / '}
            <Link to={`/people/${id}`}>{person.data?.full_name ?? 'Person'}</Link>
          </>
        )}
      </p>
      <h1>{id ? 'Edit person' : 'Add person'}</h1>
      {id === undefined ? (
        <PersonForm person={null} />
      ) : (
        <QueryState query={person} what="the person">
          {(shown) => <PersonForm person={shown} />}
        </QueryState>
      )}
    </div>
  );
}

const TEXT_FIELDS = [
  { name: 'email', label: 'E-mail', type: 'email', max: 320 },
  { name: 'employee_number', label: 'Employee number', type: 'text', max: 64 },
  {
    name: 'department',
    label: 'Department',
    type: 'text',
    max: 200,
    hint: 'A new name creates the department.',
  },
] as const;

/** What offboarding leaves out, said where the status is changed (the dialog lists it). */
function stillHeld(count: number): string {
  if (count === 0) return '';
  const what = count === 1 ? 'The asset they hold stays' : `The ${count} assets they hold stay`;
  return ` ${what} checked out to them.`;
}

function PersonForm({ person }: { person: Person | null }) {
  const navigate = useNavigate();
  const [form, setForm] = useState(() => formOf(person));
  const saving = useSavePerson();

  function submit(event: FormEvent) {
    event.preventDefault();
    const save = person
      ? { id: person.id, changes: personChanges(person, form) }
      : { id: null, input: personInput(form) };
    saving.mutate(save, {
      onSuccess: (saved) => {
        const state: PersonPageNotice = {
          notice: person ? 'Changes saved.' : `${saved.full_name} is added.`,
        };
        void navigate(`/people/${saved.id}`, { state });
      },
    });
  }

  const offboarding = person?.status === 'active' && form.status === 'inactive';

  return (
    <form className="card form-wide" onSubmit={submit}>
      <div className="field">
        <label htmlFor="person-full_name">Full name</label>
        <input
          id="person-full_name"
          required
          maxLength={200}
          autoComplete="off"
          value={form.full_name}
          onChange={(event) => setForm({ ...form, full_name: event.target.value })}
        />
      </div>
      {TEXT_FIELDS.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`person-${field.name}`}>{field.label}</label>
          <input
            id={`person-${field.name}`}
            type={field.type}
            maxLength={field.max}
            autoComplete="off"
            value={form[field.name]}
            aria-describedby={'hint' in field ? `person-${field.name}-hint` : undefined}
            onChange={(event) => setForm({ ...form, [field.name]: event.target.value })}
          />
          {'hint' in field && (
            <p id={`person-${field.name}-hint`} className="hint">
              {field.hint}
            </p>
          )}
        </div>
      ))}
      <LocationField
        id="person-location"
        value={form.place}
        onChange={(place) => setForm({ ...form, place })}
      />
      <div className="field">
        <label htmlFor="person-status">Status</label>
        <select
          id="person-status"
          value={form.status}
          aria-describedby="person-status-hint"
          onChange={(event) => setForm({ ...form, status: event.target.value as PersonStatus })}
        >
          {PERSON_STATUSES.map((value) => (
            <option key={value} value={value}>
              {PERSON_STATUS_LABEL[value]}
            </option>
          ))}
        </select>
        <p id="person-status-hint" className="hint">
          {offboarding
            ? `Saving offboards them and fires employee.offboarded.${stillHeld(person.holdings_count)}`
            : 'Assets are checked out to active people only.'}
        </p>
      </div>
      <ErrorNotice error={saving.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Saving…' : person ? 'Save changes' : 'Add person'}
        </button>
        <Link to={person ? `/people/${person.id}` : '/people'} className="button">
          Cancel
        </Link>
      </div>
    </form>
  );
}
