import type { Reminder } from '@custodian/console-client';

type Repeat = NonNullable<Reminder['repeat']>;

const UNIT = { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'] };

/** "Once", "Every month", "Every 6 months". */
export function repeatText(repeat: Reminder['repeat']): string {
  if (!repeat) return 'Once';
  const [one, many] = UNIT[repeat.unit];
  return repeat.every === 1 ? `Every ${one}` : `Every ${repeat.every} ${many}`;
}

/** What a reminder is about, as a link target and a name; null for nothing. */
export function subjectOf(
  reminder: Pick<Reminder, 'asset' | 'person' | 'license'>,
): { to: string; name: string } | null {
  if (reminder.asset) return { to: `/assets/${reminder.asset.id}`, name: reminder.asset.name };
  if (reminder.person) return { to: `/people/${reminder.person.id}`, name: reminder.person.name };
  if (reminder.license) {
    return { to: `/licenses/${reminder.license.id}`, name: reminder.license.name };
  }
  return null;
}

export interface RepeatForm {
  repeats: boolean;
  every: string;
  unit: Repeat['unit'];
}

/** The form's repeat as the API takes it, or a problem to show; null repeat: once. */
export function repeatOfForm(form: RepeatForm): { repeat: Repeat | null } | { problem: string } {
  if (!form.repeats) return { repeat: null };
  const every = Number(form.every);
  if (!Number.isInteger(every) || every < 1 || every > 365) {
    return { problem: 'Repeat every: a whole number from 1 to 365.' };
  }
  return { repeat: { every, unit: form.unit } };
}

export const REMINDER_STATUS_BADGE: Record<Reminder['status'], string> = {
  scheduled: 'badge-on',
  done: 'badge-off',
  cancelled: 'badge-failed',
};

export const REMINDER_STATUSES = ['scheduled', 'done', 'cancelled'] as const;

export const REMINDER_STATUS_LABEL: Record<Reminder['status'], string> = {
  scheduled: 'Scheduled',
  done: 'Done',
  cancelled: 'Cancelled',
};

export function isReminderStatus(value: string | null): value is Reminder['status'] {
  return (REMINDER_STATUSES as readonly (string | null)[]).includes(value);
}
