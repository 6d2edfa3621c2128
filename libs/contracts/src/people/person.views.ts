import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  IdField,
  IntField,
  ListField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { HeldSeat } from '../licenses/license.views';
import { pageOf, type Page } from '../shared/paging';
import { DepartmentRef, LocationRef, type NamedRef } from '../shared/refs';
import { PERSON_HOLDINGS_MAX, PERSON_STATUSES, type PersonStatus } from './person.constants';

const PERSON_SUMMARY_EXAMPLE = {
  id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w',
  full_name: 'Margaret Hamilton',
  email: 'margaret@example.com',
  employee_number: 'E-1969',
  status: 'active',
  updated_at: '2026-11-22T10:15:00.000Z',
} as const satisfies PersonSummary;

export const PERSON_EXAMPLE = {
  ...PERSON_SUMMARY_EXAMPLE,
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
  holdings_count: 1,
  seats: [
    {
      id: 'lst_01jd8z4b5c6d7e8f9g0h1j2k3n',
      license: { id: 'lic_01jd8z3a4b5c6d7e8f9g0h1j2k', name: 'JetBrains All Products' },
      assigned_at: '2026-11-22T10:20:00.000Z',
    },
  ],
  created_at: '2026-01-05T09:00:00.000Z',
} as const satisfies Person;

/** A person as list results show it. */
@ContractSchema({
  name: 'PersonSummary',
  description:
    'A person (someone equipment is issued to, not a login) as `GET /people` lists it. The ' +
    'single fetch (`Person`) adds department, location, holdings, holdings_count and created_at.',
  examples: [PERSON_SUMMARY_EXAMPLE],
})
export class PersonSummary {
  @IdField('per', 'Id of the person, scoped to the workspace: `per_` + a ULID.')
  id!: string;

  @TextField({ description: 'Full name (1-200 characters).' })
  full_name!: string;

  @TextField({ nullable: true, description: 'E-mail address, or null. Not unique.' })
  email!: string | null;

  @TextField({ nullable: true, description: 'Employee number, or null.' })
  employee_number!: string | null;

  @EnumField(PERSON_STATUSES, {
    description: 'Status of the person: `active` (default) or `inactive` (offboarded).',
  })
  status!: PersonStatus;

  @TimestampField({ description: 'When the person last changed.' })
  updated_at!: string;
}

/** An asset a person holds now. */
@ContractSchema({ name: 'Holding', description: 'An asset the person holds now.' })
export class Holding {
  @IdField('ast', 'Id of the asset.') id!: string;
  @TextField({ description: 'Name of the asset.' }) name!: string;
  @TextField({ description: 'Asset tag of the asset.' }) asset_tag!: string;
  @TimestampField({ description: 'When the asset was checked out to this person.' })
  since!: string;
}

/**
 * A person as the single fetch shows it; also the body of the create and update responses and
 * the `data` of the employee.* events.
 */
@ContractSchema({
  name: 'Person',
  description:
    'A person as `GET /people/{id}` returns it; also the body of `POST /people` (201) and ' +
    '`PATCH /people/{id}` (200), and the `data` of the employee.* webhook events.',
  examples: [PERSON_EXAMPLE],
})
export class Person extends PersonSummary {
  @NestedField(DepartmentRef, {
    nullable: true,
    description: 'The department (`{id, name}`), or null. Created on first use.',
  })
  department!: NamedRef | null;

  @NestedField(LocationRef, {
    nullable: true,
    description: 'The location (`{id, name}`), or null. Created on first use.',
  })
  location!: NamedRef | null;

  @ListField(Holding, {
    maxItems: PERSON_HOLDINGS_MAX,
    description:
      `The assets checked out to the person now, oldest check-out first: all of them, or the ` +
      `${PERSON_HOLDINGS_MAX} most recent check-outs when there are more (\`holdings_count\` ` +
      'says how many; `GET /assets?assigned_to_id=<id>` lists them all).',
  })
  holdings!: Holding[];

  @IntField({
    min: 0,
    description:
      'How many assets the person holds now; more than the length of `holdings` when that ' +
      `list is cut at ${PERSON_HOLDINGS_MAX}.`,
  })
  holdings_count!: number;

  @ListField(HeldSeat, {
    description:
      'The seats of licences the person holds (licences in the bin left out), oldest first. ' +
      'Offboarding with `release_licenses: true` releases them all.',
  })
  seats!: HeldSeat[];

  @TimestampField({ description: 'When the person was created.' })
  created_at!: string;
}

export const PersonPage = pageOf(PersonSummary, {
  name: 'PersonPage',
  description: 'A page of people: the body of `GET /people` when `page` is given.',
  examples: [{ data: [PERSON_SUMMARY_EXAMPLE], page: 1, pageSize: 50, total: 1 }],
});
export type PersonPage = Page<PersonSummary>;

/** A person as the single fetch shows it; also the body of create and update responses. */
export type PersonDetail = Person;
