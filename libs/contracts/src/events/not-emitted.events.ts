import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, NestedField, TextField, TimestampField } from '../fields/field.decorators';
import { AssetRef, LocationRef, type NamedRef } from '../shared/refs';

export { AssetRef };

/**
 * The `data` of the webhook events that are not a resource of the API (the asset.*,
 * employee.* and member.* events carry Asset, Person and Member). Events the service emits
 * carry exactly what their writers put in the outbox; the others are in the catalog with the
 * payload they will carry.
 *
 * The emitted events' classes are in their domain's `*.events.ts`; these are the others.
 */

// ---- in the catalog, not emitted yet -----------------------------------------------------

/** `{id, name}` of a record whose ids have no fixed prefix yet. */
function plainRef(schemaName: string) {
  @ContractSchema({ name: schemaName })
  class Ref implements NamedRef {
    @TextField() id!: string;
    @TextField() name!: string;
  }
  return Ref;
}

export const AuditRef = plainRef('AuditRef');

@ContractSchema({ name: 'Audit' })
export class Audit {
  @TextField({ description: 'Id of the audit.' }) id!: string;
  @TextField() name!: string;
  @EnumField(['in_progress', 'completed']) status!: 'in_progress' | 'completed';
  @NestedField(LocationRef, { nullable: true, description: 'The location audited.' })
  location!: NamedRef | null;
  @TimestampField() started_at!: string;
  @TimestampField({ nullable: true }) completed_at!: string | null;
}

@ContractSchema({ name: 'AuditItemMissing' })
export class AuditItemMissing {
  @NestedField(AuditRef) audit!: NamedRef;
  @NestedField(AssetRef) asset!: AssetRef;
}
