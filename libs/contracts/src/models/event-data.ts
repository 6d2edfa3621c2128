import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  ConstField,
  DateField,
  EnumField,
  IdField,
  IntField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { EffectiveLimits, PLAN_NAMES, type PlanName } from '../plans';
import { ASSET_CONDITIONS, type AssetCondition } from '../assets';
import { Asset, SCAN_MATCHES, type ScanMatch } from './assets';
import { LocationRef, PersonRef, type NamedRef } from './refs';
import { PLAN, WORKSPACE_ID } from './workspace';

/**
 * The `data` of the webhook events that are not a resource of the API (the asset.*,
 * employee.* and member.* events carry Asset, Person and Member). Events the service emits
 * carry exactly what their writers put in the outbox; the others are in the catalog with the
 * payload they will carry.
 */

// ---- emitted -----------------------------------------------------------------------------

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

/** assignment.checked_out and .checked_in: the asset as fetched, the person concerned, when. */
@ContractSchema({ name: 'CustodyChange' })
export class CustodyChange {
  @NestedField(Asset) asset!: Asset;
  @NestedField(PersonRef) person!: NamedRef;

  @TimestampField({ description: 'When it happened (the updated_at of the asset).' })
  at!: string;
}

@ContractSchema({ name: 'WorkspaceRef' })
export class WorkspaceRef {
  @IdField('wsp', WORKSPACE_ID) id!: string;
  @TextField() name!: string;
}

@ContractSchema({ name: 'WorkspaceId' })
export class WorkspaceId {
  @IdField('wsp', WORKSPACE_ID) id!: string;
}

@ContractSchema({ name: 'PlanState' })
export class PlanState {
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
  @NestedField(EffectiveLimits) limits!: EffectiveLimits;
}

@ContractSchema({ name: 'PlanChanged' })
export class PlanChanged {
  @NestedField(WorkspaceRef) workspace!: WorkspaceRef;

  @NestedField(PlanState, { description: 'The plan and effective limits before the change.' })
  previous!: PlanState;

  @NestedField(PlanState, { description: 'The plan and effective limits after the change.' })
  current!: PlanState;
}

/** Written by the register: the create (or acceptance) that used the last unit of a limit. */
@ContractSchema({
  name: 'RecordLimitReached',
  description:
    'Asset, people or seat limit: written by the create or invitation acceptance that ' +
    'used the last unit (the next one is refused with 403).',
})
export class RecordLimitReached {
  @NestedField(WorkspaceId) workspace!: WorkspaceId;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;

  @EnumField(['assets', 'people', 'seats'], {
    description: 'Which limit: assets and people by a create, seats by an accepted invitation.',
  })
  limit!: 'assets' | 'people' | 'seats';

  @IntField({ min: 0, description: 'The limit now reached.' }) value!: number;
}

@ContractSchema({ name: 'KeyRef' })
export class KeyRef {
  @IdField('key', 'Id of the key.') id!: string;
  @TextField({ description: 'Display prefix of the key.' }) prefix!: string;
}

/** Written by the gateway: the request that used the last unit of a key's monthly quota. */
@ContractSchema({
  name: 'QuotaLimitReached',
  description:
    "Monthly quota: written for the request that used the last unit of a key's quota " +
    '(the next one is refused with 429).',
})
export class QuotaLimitReached {
  @NestedField(WorkspaceRef) workspace!: WorkspaceRef;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
  @ConstField('monthly_quota') limit!: 'monthly_quota';
  @IntField({ min: 0, description: 'The monthly quota per key now used up.' }) value!: number;
  @NestedField(KeyRef, { description: 'The key whose quota is used up.' }) key!: KeyRef;
}

@ContractSchema({ name: 'EndpointRef' })
export class EndpointRef {
  @IdField('whe', 'Id of the webhook endpoint.') id!: string;
  @TextField({ description: 'URL of the endpoint.' }) url!: string;
}

@ContractSchema({ name: 'PingEvent' })
export class PingEvent {
  @NestedField(EndpointRef) endpoint!: EndpointRef;
}

// ---- in the catalog, not emitted yet -----------------------------------------------------

@ContractSchema({ name: 'AssetRef', description: 'The asset concerned.' })
export class AssetRef {
  @IdField('ast', 'Id of the asset.') id!: string;
  @TextField() name!: string;
  @TextField() asset_tag!: string;
}

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
export const LicenseRef = plainRef('LicenseRef');

@ContractSchema({ name: 'AssignmentOverdue' })
export class AssignmentOverdue {
  @NestedField(Asset) asset!: Asset;
  @NestedField(PersonRef) person!: NamedRef;
  @TimestampField({ description: 'When the asset was checked out.' }) since!: string;
  @TimestampField({ description: 'When it was due back.' }) due_at!: string;
}

@ContractSchema({ name: 'AssetRequest' })
export class AssetRequest {
  @TextField({ description: 'Id of the request.' }) id!: string;
  @EnumField(['pending', 'approved', 'rejected']) status!: 'pending' | 'approved' | 'rejected';
  @NestedField(PersonRef) requested_by!: NamedRef;

  @NestedField(AssetRef, { nullable: true, description: 'The asset asked for, if a specific one.' })
  asset!: AssetRef | null;

  @TextField({ nullable: true }) note!: string | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

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

@ContractSchema({ name: 'Maintenance' })
export class Maintenance {
  @TextField({ description: 'Id of the maintenance record.' }) id!: string;
  @NestedField(AssetRef) asset!: AssetRef;
  @TextField() title!: string;
  @EnumField(['open', 'resolved']) status!: 'open' | 'resolved';
  @TimestampField() created_at!: string;
  @TimestampField({ nullable: true }) resolved_at!: string | null;
}

@ContractSchema({ name: 'WarrantyNotice' })
export class WarrantyNotice {
  @NestedField(AssetRef) asset!: AssetRef;
  @DateField({ description: 'Last day of the warranty.' }) expires_on!: string;
}

@ContractSchema({ name: 'License' })
export class License {
  @TextField({ description: 'Id of the licence.' }) id!: string;
  @TextField() name!: string;
  @TextField({ nullable: true }) vendor!: string | null;
  @IntField({ min: 0, nullable: true, description: 'Seats bought; null if unlimited.' })
  seats!: number | null;
  @IntField({ min: 0 }) seats_used!: number;
  @DateField({ nullable: true }) expires_on!: string | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

@ContractSchema({ name: 'LicenseSeatChange' })
export class LicenseSeatChange {
  @NestedField(LicenseRef) license!: NamedRef;
  @NestedField(PersonRef) person!: NamedRef;
  @TimestampField() at!: string;
}

export const BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'cancelled',
  'checked_out',
  'completed',
  'overdue',
  'no_show',
] as const;

@ContractSchema({ name: 'Booking' })
export class Booking {
  @TextField({ description: 'Id of the booking.' }) id!: string;
  @NestedField(AssetRef) asset!: AssetRef;
  @NestedField(PersonRef) person!: NamedRef;
  @EnumField(BOOKING_STATUSES) status!: (typeof BOOKING_STATUSES)[number];
  @TimestampField() starts_at!: string;
  @TimestampField() ends_at!: string;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

@ContractSchema({ name: 'Reminder' })
export class Reminder {
  @TextField({ description: 'Id of the reminder.' }) id!: string;
  @TextField() title!: string;
  @TimestampField() due_at!: string;
  @NestedField(AssetRef, { nullable: true }) asset!: AssetRef | null;
}
