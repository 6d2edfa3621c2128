import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IdField,
  IntField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { IsBoolean } from 'class-validator';
import { pageOf } from '../shared/paging';
import { AssetRef, CategoryRef, LocationRef, type NamedRef } from '../shared/refs';
import {
  AUDIT_ITEM_STATES,
  AUDIT_SCAN_OUTCOMES,
  AUDIT_STATUSES,
  type AuditItemState,
  type AuditScanOutcome,
  type AuditStatus,
} from './audit.constants';

const bool = (description: string) => Field({ type: 'boolean' }, [IsBoolean()], { description });

/** `{id, name}` of an audit. */
@ContractSchema({ name: 'AuditRef' })
export class AuditRef implements NamedRef {
  @IdField('aud', 'Id of the audit.') id!: string;
  @TextField({ description: 'Name of the audit.' }) name!: string;
}

@ContractSchema({
  name: 'AuditCounts',
  description:
    'Live counts: expected (fixed at start), found (scanned and expected, misplaced ' +
    'included), missing (expected, not scanned: expected − found), unexpected (scanned, not ' +
    'expected), misplaced (found at another place than theirs at start).',
})
export class AuditCounts {
  @IntField({ min: 0 }) expected!: number;
  @IntField({ min: 0 }) found!: number;
  @IntField({ min: 0 }) missing!: number;
  @IntField({ min: 0 }) unexpected!: number;
  @IntField({ min: 0 }) misplaced!: number;
}

@ContractSchema({ name: 'AuditProgress', description: 'A background job on the audit.' })
export class AuditProgress {
  @IntField({ min: 0 }) done!: number;
  @IntField({ min: 0 }) total!: number;
}

@ContractSchema({ name: 'AuditCompletion', description: 'The options chosen at completion.' })
export class AuditCompletion {
  @bool('Found assets were moved to where they were scanned.') move_found!: boolean;
  @bool('Missing assets were set to `lost`.') mark_missing_lost!: boolean;
}

export const AUDIT_EXAMPLE = {
  id: 'aud_01jd8z1a2b3c4d5e6f7g8h9j0k',
  name: 'Berlin office Q4',
  status: 'open',
  location: { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0x', name: 'Berlin office' },
  include_children: true,
  category: null,
  asset_count: null,
  counts: { expected: 120, found: 80, missing: 40, unexpected: 2, misplaced: 3 },
  progress: null,
  due_at: '2026-12-15T17:00:00.000Z',
  started_at: '2026-11-22T10:15:00.000Z',
  completed_at: null,
  cancelled_at: null,
  completion: null,
  created_at: '2026-11-22T10:15:00.000Z',
  updated_at: '2026-11-22T10:15:00.000Z',
};

/**
 * An audit (stock-take). Also the `data` of audit.started (status `open`) and audit.completed
 * (status `completed`, final counts).
 */
@ContractSchema({ name: 'Audit', examples: [AUDIT_EXAMPLE] })
export class Audit {
  @IdField('aud', 'Id of the audit.') id!: string;
  @TextField() name!: string;
  @EnumField(AUDIT_STATUSES) status!: AuditStatus;
  @NestedField(LocationRef, {
    nullable: true,
    description: 'The location audited, named as it was at start; null for another scope.',
  })
  location!: NamedRef | null;
  @bool('With the location: the places under it too.') include_children!: boolean;
  @NestedField(CategoryRef, {
    nullable: true,
    description: 'The category audited, named as it was at start; null for another scope.',
  })
  category!: NamedRef | null;
  @IntField({
    min: 1,
    nullable: true,
    description: 'An audit of listed assets: how many were listed; null for another scope.',
  })
  asset_count!: number | null;
  @NestedField(AuditCounts) counts!: AuditCounts;
  @NestedField(AuditProgress, {
    nullable: true,
    description: 'While starting or completing: the background job’s progress; else null.',
  })
  progress!: AuditProgress | null;
  @TimestampField({ nullable: true }) due_at!: string | null;
  @TimestampField({ nullable: true, description: 'When the expected set was fixed.' })
  started_at!: string | null;
  @TimestampField({ nullable: true }) completed_at!: string | null;
  @TimestampField({ nullable: true }) cancelled_at!: string | null;
  @NestedField(AuditCompletion, { nullable: true, description: 'Null until completion asked.' })
  completion!: AuditCompletion | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const AuditPage = pageOf(Audit, { name: 'AuditPage' });

/** A scan recorded in an audit (POST /audits/{id}/scans answers it). */
@ContractSchema({ name: 'AuditScan' })
export class AuditScan {
  @NestedField(AssetRef) asset!: AssetRef;
  @EnumField(AUDIT_SCAN_OUTCOMES) outcome!: AuditScanOutcome;
  @TimestampField() scanned_at!: string;
  @NestedField(LocationRef, { nullable: true, description: 'Where it was scanned, if known.' })
  location!: NamedRef | null;
  @bool('true: the asset had been scanned in this audit already; this is that first scan.')
  repeated!: boolean;
}

export const AuditScanPage = pageOf(AuditScan, { name: 'AuditScanPage' });

/** One asset of an audit: expected, scanned, or both. */
@ContractSchema({ name: 'AuditItem' })
export class AuditItem {
  @NestedField(AssetRef, { description: 'The asset, named as it was when it entered the audit.' })
  asset!: AssetRef;
  @EnumField(AUDIT_ITEM_STATES.filter((state) => state !== 'expected'), {
    description: 'found, missing (not scanned, yet), unexpected or misplaced.',
  })
  state!: Exclude<AuditItemState, 'expected'>;
  @bool('In the expected set fixed at start.') expected!: boolean;
  @NestedField(LocationRef, {
    nullable: true,
    description: 'Where it was at start (expected assets); null when nowhere or not expected.',
  })
  expected_location!: NamedRef | null;
  @TimestampField({ nullable: true }) scanned_at!: string | null;
  @NestedField(LocationRef, { nullable: true, description: 'Where it was scanned.' })
  scanned_location!: NamedRef | null;
}

export const AuditItemPage = pageOf(AuditItem, { name: 'AuditItemPage' });
