import { IsBoolean } from 'class-validator';
import { DateField, EnumField, Field, NestedField, TextField } from '../fields/field.decorators';
import { LICENSE_COST_PATTERN } from '../licenses/license.constants';
import { ReminderRepeat } from '../reminders/reminder.views';
import {
  MAINTENANCE_STATUSES,
  MAINTENANCE_TYPES,
  type MaintenanceStatus,
  type MaintenanceType,
} from './maintenance.constants';

const CLEARABLE = { optional: true, nullable: true } as const;
const COST = {
  pattern: LICENSE_COST_PATTERN,
  description: 'What it cost, as a decimal string (`189.00`), in the workspace’s currency.',
} as const;

/** Body of POST /assets/{id}/maintenance. */
export class CreateMaintenanceInput {
  @TextField({ min: 1, max: 200, notBlank: true }) title!: string;
  @EnumField(MAINTENANCE_TYPES) type!: MaintenanceType;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
  @DateField({ ...CLEARABLE, description: 'The day the work is planned for.' })
  scheduled_for?: string | null;
  @TextField({ ...COST, ...CLEARABLE }) cost?: string | null;
  @Field({ type: 'boolean' }, [IsBoolean({ message: 'set_asset_status must be true or false' })], {
    optional: true,
    description:
      'true: the asset goes to status `maintenance` in the same transaction (`asset.updated`), ' +
      'and back to the status it had when the last open record that put it there is resolved. ' +
      'Default false.',
  })
  set_asset_status?: boolean;
  @NestedField(ReminderRepeat, {
    optional: true,
    description:
      'Also make a repeating reminder about the asset, titled as the record ("service every 6 ' +
      'months"): first due one interval after `scheduled_for` (09:00 UTC), or after now without ' +
      "it; `reminder.due` at each occurrence. Its id is the record's `reminder_id`.",
  })
  repeat?: ReminderRepeat;
}

/** Body of PATCH /maintenance/{id}: partial; `null` clears (but not title or type). */
export class UpdateMaintenanceInput {
  @TextField({ min: 1, max: 200, notBlank: true, optional: true }) title?: string;
  @EnumField(MAINTENANCE_TYPES, { optional: true }) type?: MaintenanceType;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
  @DateField({ ...CLEARABLE }) scheduled_for?: string | null;
  @TextField({ ...COST, ...CLEARABLE }) cost?: string | null;
}

/** Body of POST /maintenance/{id}/resolve. */
export class ResolveMaintenanceInput {
  @TextField({ max: 2000, ...CLEARABLE, description: 'What was done (the resolution notes).' })
  notes?: string | null;
  @TextField({
    ...COST,
    ...CLEARABLE,
    description: 'The final cost; left out keeps the cost the record has.',
  })
  cost?: string | null;
}

/** Query of GET /maintenance and GET /assets/{id}/maintenance. */
export class MaintenanceListQuery {
  @EnumField(MAINTENANCE_STATUSES, { optional: true }) status?: MaintenanceStatus;
  @TextField({ min: 1, max: 64, optional: true, description: 'Records of this asset.' })
  asset_id?: string;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}
