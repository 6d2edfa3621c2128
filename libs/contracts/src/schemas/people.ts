import { Type } from '@sinclair/typebox';
import { ASSET_UNPAGED_MAX } from '../assets';
import { PERSON_STATUSES } from '../people';
import { pageSchema } from './assets';
import { NamedRefOf, Nullable, PrefixedId, StringEnum, Timestamp } from './common';

export const PersonStatusSchema = StringEnum(PERSON_STATUSES, {
  description: 'Status of the person: `active` (default) or `inactive` (offboarded).',
});

const personFields = {
  id: PrefixedId('per', 'Id of the person, scoped to the workspace: `per_` + a ULID.'),
  full_name: Type.String({ description: 'Full name (1-200 characters).' }),
  email: Nullable(Type.String(), { description: 'E-mail address, or null. Not unique.' }),
  employee_number: Nullable(Type.String(), { description: 'Employee number, or null.' }),
  status: PersonStatusSchema,
  updated_at: Timestamp('When the person last changed.'),
};

const personSummaryExample = {
  id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w',
  full_name: 'Margaret Hamilton',
  email: 'margaret@example.com',
  employee_number: 'E-1969',
  status: 'active',
  updated_at: '2026-11-22T10:15:00.000Z',
};

const personExample = {
  ...personSummaryExample,
  department: { id: 'dep_01jd8x0a1b2c3d4e5f6g7h8j9k', name: 'Engineering' },
  location: { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0x', name: 'Berlin office' },
  holdings: [
    {
      id: 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w',
      name: 'MacBook Pro 14"',
      asset_tag: 'AT-000042',
      since: '2026-11-22T10:15:00.000Z',
    },
  ],
  created_at: '2026-01-05T09:00:00.000Z',
};

/** A person as list results show it. */
export const PersonSummarySchema = Type.Object(personFields, {
  additionalProperties: false,
  title: 'PersonSummary',
  description:
    'A person (someone equipment is issued to, not a login) as `GET /people` lists it. The ' +
    'single fetch (`Person`) adds department, location, holdings and created_at.',
  examples: [personSummaryExample],
});

/** An asset a person holds now. */
export const HoldingSchema = Type.Object(
  {
    id: PrefixedId('ast', 'Id of the asset.'),
    name: Type.String({ description: 'Name of the asset.' }),
    asset_tag: Type.String({ description: 'Asset tag of the asset.' }),
    since: Timestamp('When the asset was checked out to this person.'),
  },
  { additionalProperties: false, description: 'An asset the person holds now.' },
);

/**
 * A person as the single fetch shows it; also the body of the create and update responses and
 * the `data` of the employee.* events.
 */
export const PersonSchema = Type.Object(
  {
    ...personFields,
    department: Nullable(NamedRefOf('dep', 'department'), {
      description: 'The department (`{id, name}`), or null. Created on first use.',
    }),
    location: Nullable(NamedRefOf('loc', 'location'), {
      description: 'The location (`{id, name}`), or null. Created on first use.',
    }),
    holdings: Type.Array(HoldingSchema, {
      description: 'The assets checked out to the person now, oldest check-out first.',
    }),
    created_at: Timestamp('When the person was created.'),
  },
  {
    additionalProperties: false,
    title: 'Person',
    description:
      'A person as `GET /people/{id}` returns it; also the body of `POST /people` (201) and ' +
      '`PATCH /people/{id}` (200), and the `data` of the employee.* webhook events.',
    examples: [personExample],
  },
);

export const PersonPageSchema = pageSchema(PersonSummarySchema, {
  title: 'PersonPage',
  description: 'A page of people: the body of `GET /people` when `page` is given.',
  examples: [{ data: [personSummaryExample], page: 1, pageSize: 50, total: 1 }],
});

export const PersonListSchema = Type.Array(PersonSummarySchema, {
  maxItems: ASSET_UNPAGED_MAX,
  title: 'PersonList',
  description: `The body of \`GET /people\` without \`page\`: a bare array of at most ${ASSET_UNPAGED_MAX} people.`,
  examples: [[personSummaryExample]],
});

export const PERSON_EXAMPLE = personExample;
