import type { Person, PersonChanges, PersonInput, PersonStatus } from '@custodian/console-client';
import { PERSON_STATUSES as CONTRACT_PERSON_STATUSES } from '@custodian/contracts/constants';
import { type PlaceChoice, placeChoiceOf, placeFields } from '../locations/location-values';

// The values the API accepts (the contract's own list), as a person reads them. `satisfies`
// ties the list to the generated schema: a status the API drops stops compiling here.

export const PERSON_STATUSES = CONTRACT_PERSON_STATUSES satisfies readonly PersonStatus[];

export const PERSON_STATUS_LABEL: Record<PersonStatus, string> = {
  active: 'Active',
  inactive: 'Offboarded',
};

export function isPersonStatus(value: string | null): value is PersonStatus {
  return (PERSON_STATUSES as readonly string[]).includes(value ?? '');
}

/** What the create and edit form holds: text as typed, empty meaning "none". */
export interface PersonForm {
  full_name: string;
  email: string;
  employee_number: string;
  department: string;
  /** Where they sit: a place by id, or a new one by name. */
  place: PlaceChoice;
  status: PersonStatus;
}

export function formOf(person: Person | null): PersonForm {
  return {
    full_name: person?.full_name ?? '',
    email: person?.email ?? '',
    employee_number: person?.employee_number ?? '',
    department: person?.department?.name ?? '',
    place: placeChoiceOf(person?.location),
    status: person?.status ?? 'active',
  };
}

const CLEARABLE = ['email', 'employee_number', 'department'] as const;

/** The body of a create: the fields filled in, trimmed; the empty ones left out. */
export function personInput(form: PersonForm): PersonInput {
  const input: PersonInput = { full_name: form.full_name.trim(), status: form.status };
  for (const field of CLEARABLE) {
    const value = form[field].trim();
    if (value) input[field] = value;
  }
  return { ...input, ...placeFields(form.place, null) };
}

/**
 * The body of an edit: only what differs from the person as loaded, an emptied field as null
 * (cleared). Fields left alone are not sent, so an edit never overwrites a change someone
 * else made to another field meanwhile, and an edit that changes nothing writes nothing.
 */
export function personChanges(person: Person, form: PersonForm): PersonChanges {
  const before = formOf(person);
  const changes: PersonChanges = {};
  const name = form.full_name.trim();
  if (name !== before.full_name) changes.full_name = name;
  if (form.status !== before.status) changes.status = form.status;
  for (const field of CLEARABLE) {
    const value = form[field].trim();
    if (value !== before[field]) changes[field] = value || null;
  }
  return { ...changes, ...placeFields(form.place, person.location?.id ?? null) };
}

/**
 * The people list as shown (its search and status), as a CSV file with every column. Streamed
 * by the console API; the session cookie goes with a plain link.
 */
export function peopleExportHref(
  search: string | null | undefined,
  status: string | null | undefined,
): string {
  const query = new URLSearchParams();
  if (search) query.set('search', search);
  if (status) query.set('status', status);
  const text = query.toString();
  return `/console/api/people/export${text ? `?${text}` : ''}`;
}
