import { IsBoolean } from 'class-validator';
import { DateField, Field, IntField, TextField } from '../fields/field.decorators';
import { LICENSE_COST_PATTERN, LICENSE_SEATS_MAX } from './license.constants';

const CLEARABLE = { optional: true, nullable: true } as const;
const ID = (prefix: string) => `^${prefix}_[0-9a-z]{26}$`;

/** Body of POST /licenses. */
export class CreateLicenseInput {
  @TextField({ min: 1, max: 200, notBlank: true }) name!: string;
  @TextField({ min: 1, max: 200, notBlank: true, ...CLEARABLE }) vendor?: string | null;
  @IntField({
    min: 1,
    max: LICENSE_SEATS_MAX,
    ...CLEARABLE,
    description: 'Seats bought; null or left out: unlimited.',
  })
  seats?: number | null;
  @DateField({ ...CLEARABLE, description: 'Last day the licence is valid.' })
  expires_on?: string | null;
  @TextField({
    pattern: LICENSE_COST_PATTERN,
    ...CLEARABLE,
    description: 'What it cost, as a decimal string (`1299.00`), in the workspace’s currency.',
  })
  cost?: string | null;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
  @TextField({
    min: 1,
    max: 2000,
    ...CLEARABLE,
    description:
      'The product key: stored encrypted, never in a list, a fetch or an event; read it with ' +
      '`POST /licenses/{id}/key`.',
  })
  product_key?: string | null;
}

/** Body of PATCH /licenses/{id}: partial; `null` clears (but not name). */
export class UpdateLicenseInput {
  @TextField({ min: 1, max: 200, notBlank: true, optional: true }) name?: string;
  @TextField({ min: 1, max: 200, notBlank: true, ...CLEARABLE }) vendor?: string | null;
  @IntField({
    min: 1,
    max: LICENSE_SEATS_MAX,
    ...CLEARABLE,
    description: 'Seats bought; null: unlimited. Fewer than are in use is a 409.',
  })
  seats?: number | null;
  @DateField({ ...CLEARABLE }) expires_on?: string | null;
  @TextField({ pattern: LICENSE_COST_PATTERN, ...CLEARABLE }) cost?: string | null;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
  @TextField({ min: 1, max: 2000, ...CLEARABLE }) product_key?: string | null;
}

/** Body of POST /licenses/{id}/seats: exactly one of person_id and asset_id. */
export class AssignSeatInput {
  @TextField({ pattern: ID('per'), optional: true, description: 'The person the seat is for.' })
  person_id?: string;
  @TextField({ pattern: ID('ast'), optional: true, description: 'The asset the seat is for.' })
  asset_id?: string;
}

/** Query of GET /licenses. */
export class LicenseListQuery {
  @TextField({ min: 1, max: 200, optional: true, description: 'In the name or the vendor.' })
  search?: string;
  @DateField({ optional: true, description: 'Licences ending on or before this day.' })
  expires_before?: string;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}

/** Body of PATCH /settings/licenses. */
export class UpdateLicenseSettingsInput {
  @Field(
    { type: 'boolean' },
    [IsBoolean({ message: 'release_on_offboard must be true or false' })],
    {
      optional: true,
      description:
        'Release a person’s seats when they are offboarded and the PATCH does not say ' +
        '(`release_licenses` on the PATCH always wins).',
    },
  )
  release_on_offboard?: boolean;
}
