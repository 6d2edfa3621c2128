import { EnumField, InstantField, NestedField, TextField } from '../fields/field.decorators';
import { REMINDER_STATUSES, type ReminderStatus } from './reminder.constants';
import { ReminderRepeat } from './reminder.views';

const CLEARABLE = { optional: true, nullable: true } as const;
const ID = (prefix: string) => `^${prefix}_[0-9a-z]{26}$`;
const REPEAT =
  'Repeat every N days, weeks or months, counted from `due_at`; null or left out: once. Each ' +
  'occurrence fires `reminder.due`.';

/** Body of POST /reminders: about at most one of an asset, a person and a licence. */
export class CreateReminderInput {
  @TextField({ min: 1, max: 200, notBlank: true }) title!: string;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
  @InstantField({ description: 'The first occurrence, in the future (ISO 8601 with offset).' })
  due_at!: string;
  @NestedField(ReminderRepeat, { ...CLEARABLE, description: REPEAT })
  repeat?: ReminderRepeat | null;
  @TextField({ pattern: ID('ast'), optional: true, description: 'The asset it is about.' })
  asset_id?: string;
  @TextField({ pattern: ID('per'), optional: true, description: 'The person it is about.' })
  person_id?: string;
  @TextField({ pattern: ID('lic'), optional: true, description: 'The licence it is about.' })
  license_id?: string;
}

/**
 * Body of PATCH /reminders/{id}: partial. A new `due_at` or `repeat` starts the count again
 * from the new `due_at` (or the current one).
 */
export class UpdateReminderInput {
  @TextField({ min: 1, max: 200, notBlank: true, optional: true }) title?: string;
  @TextField({ max: 2000, ...CLEARABLE }) notes?: string | null;
  @InstantField({ optional: true, description: 'The next occurrence, in the future.' })
  due_at?: string;
  @NestedField(ReminderRepeat, { ...CLEARABLE, description: REPEAT })
  repeat?: ReminderRepeat | null;
}

/** Query of GET /reminders. */
export class ReminderListQuery {
  @EnumField(REMINDER_STATUSES, {
    optional: true,
    description: 'Only this status; by default every reminder but the cancelled ones.',
  })
  status?: ReminderStatus;
  @TextField({ min: 1, max: 64, optional: true }) asset_id?: string;
  @TextField({ min: 1, max: 64, optional: true }) person_id?: string;
  @TextField({ min: 1, max: 64, optional: true }) license_id?: string;
  @InstantField({ optional: true, description: 'Only those due before this instant.' })
  due_before?: string;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}
