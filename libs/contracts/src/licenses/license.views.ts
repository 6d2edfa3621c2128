import { IsBoolean } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  DateField,
  Field,
  IdField,
  IntField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { pageOf } from '../shared/paging';
import { AssetRef, PersonRef, type NamedRef } from '../shared/refs';

export const LICENSE_EXAMPLE = {
  id: 'lic_01jd8z3a4b5c6d7e8f9g0h1j2k',
  name: 'JetBrains All Products',
  vendor: 'JetBrains',
  seats: 25,
  seats_used: 12,
  expires_on: '2027-03-31',
  cost: '6490.00',
  notes: null,
  has_product_key: true,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};

/** A software licence. Also the `data` of license.created, updated, deleted (as it was). */
@ContractSchema({ name: 'License', examples: [LICENSE_EXAMPLE] })
export class License {
  @IdField('lic', 'Id of the licence.') id!: string;
  @TextField() name!: string;
  @TextField({ nullable: true }) vendor!: string | null;
  @IntField({ min: 1, nullable: true, description: 'Seats bought; null if unlimited.' })
  seats!: number | null;
  @IntField({ min: 0, description: 'Seats assigned now.' }) seats_used!: number;
  @DateField({ nullable: true, description: 'Last day it is valid.' })
  expires_on!: string | null;
  @TextField({ nullable: true, description: 'What it cost (decimal string).' })
  cost!: string | null;
  @TextField({ nullable: true }) notes!: string | null;
  @Field({ type: 'boolean' }, [IsBoolean()], {
    description: 'Whether a product key is stored (read it with POST /licenses/{id}/key).',
  })
  has_product_key!: boolean;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const LicensePage = pageOf(License, { name: 'LicensePage' });

/** `{id, name}` of a licence. */
@ContractSchema({ name: 'LicenseRef' })
export class LicenseRef implements NamedRef {
  @IdField('lic', 'Id of the licence.') id!: string;
  @TextField() name!: string;
}

/** A seat as its holder's single fetch lists it (`seats` of a Person and of an Asset). */
@ContractSchema({ name: 'HeldSeat' })
export class HeldSeat {
  @IdField('lst', 'Id of the seat (release it with DELETE /licenses/{id}/seats/{seatId}).')
  id!: string;
  @NestedField(LicenseRef) license!: NamedRef;
  @TimestampField({ description: 'When it was assigned.' }) assigned_at!: string;
}

/** One seat of a licence: held by a person or by an asset. */
@ContractSchema({ name: 'LicenseSeat' })
export class LicenseSeat {
  @IdField('lst', 'Id of the seat.') id!: string;
  @NestedField(LicenseRef) license!: NamedRef;
  @NestedField(PersonRef, { nullable: true, description: 'The person holding it, if a person.' })
  person!: NamedRef | null;
  @NestedField(AssetRef, { nullable: true, description: 'The asset holding it, if an asset.' })
  asset!: AssetRef | null;
  @TimestampField() assigned_at!: string;
}

/**
 * The `data` of license.seat_assigned and license.seat_released: the seat, and the licence's
 * seats after the change (so a receiver knows how many are left without a read).
 */
@ContractSchema({ name: 'LicenseSeatChange' })
export class LicenseSeatChange {
  @NestedField(LicenseSeat) seat!: LicenseSeat;
  @IntField({ min: 1, nullable: true, description: 'Seats bought; null if unlimited.' })
  seats!: number | null;
  @IntField({ min: 0, description: 'Seats assigned after the change.' }) seats_used!: number;
  @TimestampField({ description: 'When it was assigned or released.' }) at!: string;
}

/** POST /licenses/{id}/key: the product key, decrypted for this answer only. */
@ContractSchema({ name: 'LicenseKey' })
export class LicenseKey {
  @IdField('lic', 'Id of the licence.') id!: string;
  @TextField({ nullable: true, description: 'The product key; null if none is stored.' })
  product_key!: string | null;
}

/**
 * The `data` of license.expiring and license.expired: the licence as it is, its last valid day,
 * and the whole days left until it ends (the end of `expires_on`, UTC).
 */
@ContractSchema({ name: 'LicenseExpiry' })
export class LicenseExpiry {
  @NestedField(License) license!: License;
  @DateField({ description: 'Last day it is valid.' }) expires_on!: string;
  @IntField({
    min: 0,
    description:
      'Days until it ends: the threshold reached (`expiry_days` of the notice settings), fewer ' +
      'when the date was set already inside it; 0 for `license.expired`.',
  })
  days_left!: number;
}
