import { ContractSchema } from '../fields/contract-schema.decorator';
import { NestedField, TimestampField } from '../fields/field.decorators';
import { Asset } from '../assets/asset.views';
import { PersonRef, type NamedRef } from '../shared/refs';

/** assignment.checked_out and .checked_in: the asset as fetched, the person concerned, when. */
@ContractSchema({ name: 'CustodyChange' })
export class CustodyChange {
  @NestedField(Asset) asset!: Asset;
  @NestedField(PersonRef) person!: NamedRef;

  @TimestampField({ description: 'When it happened (the updated_at of the asset).' })
  at!: string;
}

@ContractSchema({ name: 'AssignmentOverdue' })
export class AssignmentOverdue {
  @NestedField(Asset) asset!: Asset;
  @NestedField(PersonRef) person!: NamedRef;
  @TimestampField({ description: 'When the asset was checked out.' }) since!: string;
  @TimestampField({ description: 'When it was due back.' }) due_at!: string;
}
