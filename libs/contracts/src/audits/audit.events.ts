import { ContractSchema } from '../fields/contract-schema.decorator';
import { NestedField } from '../fields/field.decorators';
import { AssetRef, LocationRef, type NamedRef } from '../shared/refs';
import { AuditRef } from './audit.views';

/** The `data` of audit.item_missing: one per expected asset not found, at completion. */
@ContractSchema({ name: 'AuditItemMissing' })
export class AuditItemMissing {
  @NestedField(AuditRef) audit!: AuditRef;
  @NestedField(AssetRef) asset!: AssetRef;
  @NestedField(LocationRef, {
    nullable: true,
    description: 'Where the asset was at the audit’s start; null when nowhere (or since deleted).',
  })
  expected_location!: NamedRef | null;
}
