import { EmailField, EnumField, TextField } from './fields/field.decorators';
import type { Person } from './models/people';

export const PERSON_STATUSES = ['active', 'inactive'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

/**
 * Holdings embedded in a person (the single fetch, employee.* events): the most recent
 * check-outs; `holdings_count` says how many there are, `GET /assets?assigned_to_id=` lists all.
 */
export const PERSON_HOLDINGS_MAX = 50;

const TEXT_MAX = 200;
const EMAIL_MAX = 320;
/** What may be left out, or sent as `null` to leave (or make) a field empty. */
const CLEARABLE = { optional: true, nullable: true } as const;

/** Body of POST /people. */
export class CreatePersonInput {
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true }) full_name!: string;
  @EmailField({ max: EMAIL_MAX, ...CLEARABLE }) email?: string | null;
  @TextField({ max: 64, ...CLEARABLE }) employee_number?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) department?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) location?: string | null;
  @EnumField(PERSON_STATUSES, CLEARABLE) status?: PersonStatus;
}

/** Body of PATCH /people/{id}: partial; `null` clears, but not full_name or status. */
export class UpdatePersonInput {
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, optional: true }) full_name?: string;
  @EmailField({ max: EMAIL_MAX, ...CLEARABLE }) email?: string | null;
  @TextField({ max: 64, ...CLEARABLE }) employee_number?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) department?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) location?: string | null;
  @EnumField(PERSON_STATUSES, { optional: true }) status?: PersonStatus;
}

/** A person as the single fetch shows it; also the body of create and update responses. */
export type PersonDetail = Person;
