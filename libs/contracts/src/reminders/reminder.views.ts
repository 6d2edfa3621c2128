import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  IdField,
  IntField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { LicenseRef } from '../licenses/license.views';
import { pageOf } from '../shared/paging';
import { AssetRef, PersonRef, type NamedRef } from '../shared/refs';
import {
  REMINDER_EVERY_MAX,
  REMINDER_STATUSES,
  REMINDER_UNITS,
  type ReminderStatus,
  type ReminderUnit,
} from './reminder.constants';

/** How a reminder repeats: every `every` `unit`s, counted from its first occurrence (UTC). */
@ContractSchema({ name: 'ReminderRepeat' })
export class ReminderRepeat {
  @IntField({ min: 1, max: REMINDER_EVERY_MAX, description: 'How many units between two.' })
  every!: number;
  @EnumField(REMINDER_UNITS, {
    description:
      'day, week or month. Months keep the day of the month of the first occurrence, or the ' +
      'last day of a shorter month (31 January, 28 February, 31 March).',
  })
  unit!: ReminderUnit;
}

export const REMINDER_EXAMPLE = {
  id: 'rem_01jd8z7q4f7k2m9n3p5r7t9v1w',
  title: 'Service the forklift',
  notes: 'Oil, filters, brakes.',
  status: 'scheduled',
  due_at: '2027-01-15T09:00:00.000Z',
  repeat: { every: 6, unit: 'month' },
  next_due_at: '2027-07-15T09:00:00.000Z',
  occurrences: 2,
  last_due_at: '2026-07-15T09:00:00.000Z',
  asset: { id: 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w', name: 'Forklift', asset_tag: 'AT-000007' },
  person: null,
  license: null,
  created_at: '2026-01-10T08:00:00.000Z',
  updated_at: '2026-07-15T09:00:00.000Z',
} as const satisfies Reminder;

/**
 * A reminder: at `due_at`, `reminder.due` fires (once per occurrence); a repeating one then
 * moves to its next occurrence in the same transaction. Also the `data` of `reminder.due`,
 * where `due_at` is the occurrence that fired and `next_due_at` the one now scheduled.
 */
@ContractSchema({ name: 'Reminder', examples: [REMINDER_EXAMPLE] })
export class Reminder {
  @IdField('rem', 'Id of the reminder.') id!: string;
  @TextField({ description: 'What to do (1-200 characters).' }) title!: string;
  @TextField({ nullable: true }) notes!: string | null;
  @EnumField(REMINDER_STATUSES, {
    description: 'scheduled (an occurrence ahead), done (a one-off that fired) or cancelled.',
  })
  status!: ReminderStatus;
  @TimestampField({
    description:
      'The next occurrence (the last one of a done reminder); in `reminder.due`, the occurrence ' +
      'that fired.',
  })
  due_at!: string;
  @NestedField(ReminderRepeat, { nullable: true, description: 'How it repeats; null: once.' })
  repeat!: ReminderRepeat | null;
  @TimestampField({
    nullable: true,
    description: 'The occurrence after `due_at`; null for a one-off.',
  })
  next_due_at!: string | null;
  @IntField({ min: 0, description: 'Occurrences fired so far.' }) occurrences!: number;
  @TimestampField({ nullable: true, description: 'The last occurrence that fired, or null.' })
  last_due_at!: string | null;
  @NestedField(AssetRef, { nullable: true, description: 'The asset it is about, or null.' })
  asset!: AssetRef | null;
  @NestedField(PersonRef, { nullable: true, description: 'The person it is about, or null.' })
  person!: NamedRef | null;
  @NestedField(LicenseRef, { nullable: true, description: 'The licence it is about, or null.' })
  license!: NamedRef | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const ReminderPage = pageOf(Reminder, { name: 'ReminderPage' });
