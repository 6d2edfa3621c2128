import type { Person } from '@custodian/console-client';
import {
  formOf,
  isPersonStatus,
  peopleExportHref,
  personChanges,
  personInput,
} from './person-values';

const PERSON: Person = {
  id: 'per_1',
  full_name: 'Dorothy Vaughan',
  email: 'dorothy@example.com',
  employee_number: 'E-1910',
  status: 'active',
  department: { id: 'dep_1', name: 'Computing' },
  location: null,
  holdings: [],
  holdings_count: 0,
  seats: [],
  created_at: '2026-01-05T09:00:00.000Z',
  updated_at: '2026-01-05T09:00:00.000Z',
};

describe('personInput', () => {
  it('sends the filled fields trimmed and leaves the empty ones out', () => {
    const form = {
      ...formOf(null),
      full_name: '  Mary Jackson ',
      email: ' mary@example.com',
      place: { id: null, newName: '   ' },
    };
    expect(personInput(form)).toEqual({
      full_name: 'Mary Jackson',
      email: 'mary@example.com',
      status: 'active',
    });
  });
});

describe('personChanges', () => {
  it('sends nothing when nothing changed, so the edit writes nothing', () => {
    expect(personChanges(PERSON, formOf(PERSON))).toEqual({});
  });

  it('sends what changed, an emptied field as null and a new name for a new department', () => {
    const form = {
      ...formOf(PERSON),
      email: '',
      department: 'Engineering ',
      place: { id: null, newName: 'Hampton' },
      status: 'inactive' as const,
    };
    expect(personChanges(PERSON, form)).toEqual({
      email: null,
      department: 'Engineering',
      location: 'Hampton',
      status: 'inactive',
    });
  });

  it('sends a place by id, and clears it with null', () => {
    const placed = { ...PERSON, location: { id: 'loc_1', name: 'Storage' } };
    expect(personChanges(placed, formOf(placed))).toEqual({});
    const moved = { ...formOf(placed), place: { id: 'loc_2', newName: null } };
    expect(personChanges(placed, moved)).toEqual({ location_id: 'loc_2' });
    const cleared = { ...formOf(placed), place: { id: null, newName: null } };
    expect(personChanges(placed, cleared)).toEqual({ location_id: null });
  });
});

describe('isPersonStatus', () => {
  it("knows the API's statuses only", () => {
    expect(isPersonStatus('inactive')).toBe(true);
    expect(isPersonStatus('offboarded')).toBe(false);
    expect(isPersonStatus(null)).toBe(false);
  });
});

describe('peopleExportHref', () => {
  it('exports the list as filtered, and the whole list without a filter', () => {
    expect(peopleExportHref('Vaughan & co', 'offboarded')).toBe(
      '/console/api/people/export?search=Vaughan+%26+co&status=offboarded',
    );
    expect(peopleExportHref('', null)).toBe('/console/api/people/export');
  });
});
