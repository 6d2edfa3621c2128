import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  DateField,
  EnumField,
  IdField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { ASSET_STATUSES, type AssetStatus } from '../assets/asset.constants';
import { pageOf } from '../shared/paging';
import { AssetRef } from '../shared/refs';
import {
  MAINTENANCE_STATUSES,
  MAINTENANCE_TYPES,
  type MaintenanceStatus,
  type MaintenanceType,
} from './maintenance.constants';

export const MAINTENANCE_EXAMPLE = {
  id: 'mnt_01jd8z2a3b4c5d6e7f8g9h0j1k',
  asset: { id: 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w', name: 'MacBook Pro 14"', asset_tag: 'AT-000042' },
  title: 'Battery replacement',
  type: 'repair',
  notes: 'Swollen battery, lid does not close',
  scheduled_for: '2026-12-02',
  cost: '189.00',
  status: 'open',
  asset_status_before: 'active',
  resolution_notes: null,
  created_at: '2026-11-22T10:15:00.000Z',
  updated_at: '2026-11-22T10:15:00.000Z',
  resolved_at: null,
  reminder_id: 'rem_01jd8z7q4f7k2m9n3p5r7t9v1w',
};

/**
 * A maintenance record of an asset. Also the `data` of maintenance.created and
 * maintenance.resolved (the record after the change).
 */
@ContractSchema({ name: 'Maintenance', examples: [MAINTENANCE_EXAMPLE] })
export class Maintenance {
  @IdField('mnt', 'Id of the maintenance record.') id!: string;
  @NestedField(AssetRef) asset!: AssetRef;
  @TextField() title!: string;
  @EnumField(MAINTENANCE_TYPES) type!: MaintenanceType;
  @TextField({ nullable: true }) notes!: string | null;
  @DateField({ nullable: true, description: 'The day the work is planned for.' })
  scheduled_for!: string | null;
  @TextField({ nullable: true, description: 'What it cost (decimal string).' })
  cost!: string | null;
  @EnumField(MAINTENANCE_STATUSES) status!: MaintenanceStatus;
  @EnumField(ASSET_STATUSES, {
    nullable: true,
    description:
      'The asset’s status before this record put it in `maintenance` (what a resolve puts ' +
      'back); null when the record did not change the asset’s status.',
  })
  asset_status_before!: AssetStatus | null;
  @TextField({ nullable: true, description: 'What was done, given when resolved.' })
  resolution_notes!: string | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
  @TimestampField({ nullable: true }) resolved_at!: string | null;
  @TextField({
    nullable: true,
    description:
      'The repeating reminder made with the record (`repeat` on create), about its asset; ' +
      'null without one.',
  })
  reminder_id!: string | null;
}

export const MaintenancePage = pageOf(Maintenance, { name: 'MaintenancePage' });
