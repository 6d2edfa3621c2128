import { IsBoolean } from 'class-validator';
import { EmailField, EnumField, Field, TextField } from '../fields/field.decorators';
import { LOCATION_BY_ID, LOCATION_BY_NAME } from '../locations/location.fields';
import { PERSON_STATUSES, type PersonStatus } from './person.constants';

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
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE, description: LOCATION_BY_NAME })
  location?: string | null;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: LOCATION_BY_ID })
  location_id?: string | null;
  @EnumField(PERSON_STATUSES, CLEARABLE) status?: PersonStatus;
}

/** Body of PATCH /people/{id}: partial; `null` clears, but not full_name or status. */
export class UpdatePersonInput {
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, optional: true }) full_name?: string;
  @EmailField({ max: EMAIL_MAX, ...CLEARABLE }) email?: string | null;
  @TextField({ max: 64, ...CLEARABLE }) employee_number?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) department?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE, description: LOCATION_BY_NAME })
  location?: string | null;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: LOCATION_BY_ID })
  location_id?: string | null;
  @EnumField(PERSON_STATUSES, { optional: true }) status?: PersonStatus;
  @Field({ type: 'boolean' }, [IsBoolean({ message: 'release_licenses must be true or false' })], {
    optional: true,
    description:
      'With `status: inactive` (offboarding): also release every licence seat the person ' +
      'holds, in the same change (`license.seat_released` each, beside `employee.offboarded`).',
  })
  release_licenses?: boolean;
}
