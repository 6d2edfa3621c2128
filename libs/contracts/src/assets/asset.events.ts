import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  DateField,
  EnumField,
  IntField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { AssetRef } from '../shared/refs';
import {
  ASSET_CONDITIONS,
  SCAN_MATCHES,
  type AssetCondition,
  type ScanMatch,
} from './asset.constants';
import { Asset } from './asset.views';

/** asset.condition_changed: the asset after the change, and the condition before and after. */
@ContractSchema({ name: 'ConditionChange' })
export class ConditionChange {
  @NestedField(Asset) asset!: Asset;
  @EnumField(ASSET_CONDITIONS, {
    nullable: true,
    description: 'The condition before; null: none was recorded.',
  })
  from!: AssetCondition | null;
  @EnumField(ASSET_CONDITIONS, {
    nullable: true,
    description: 'The condition now; null: cleared.',
  })
  to!: AssetCondition | null;
  @TimestampField({ description: 'When it changed (the updated_at of the asset).' }) at!: string;
}

/** asset.scanned: the asset found, the code as scanned, what it matched, when. */
@ContractSchema({ name: 'AssetScan' })
export class AssetScan {
  @NestedField(Asset) asset!: Asset;
  @TextField({ description: 'The code as the scanner typed it (trimmed).' }) code!: string;
  @EnumField(SCAN_MATCHES, { description: 'What the code matched.' }) matched!: ScanMatch;
  @TimestampField({ description: 'When it was scanned.' }) at!: string;
}

/**
 * warranty.expiring and warranty.expired: the asset (`{id, name, asset_tag}`), the last day of
 * its warranty, and the whole days left until it ends (the end of that day, UTC).
 */
@ContractSchema({ name: 'WarrantyNotice' })
export class WarrantyNotice {
  @NestedField(AssetRef) asset!: AssetRef;
  @DateField({ description: 'Last day of the warranty.' }) expires_on!: string;
  @IntField({
    min: 0,
    description:
      'Days until it ends: the threshold reached (`expiry_days` of the notice settings), fewer ' +
      'when the date was set already inside it; 0 for `warranty.expired`.',
  })
  days_left!: number;
}
