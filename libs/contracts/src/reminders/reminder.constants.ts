/** How a repeating reminder counts its interval: every N days, weeks or months (UTC). */
export const REMINDER_UNITS = ['day', 'week', 'month'] as const;
export type ReminderUnit = (typeof REMINDER_UNITS)[number];

/**
 * scheduled: its next occurrence is ahead; done: a one-off that has fired; cancelled:
 * DELETE /reminders/{id}, nothing more fires.
 */
export const REMINDER_STATUSES = ['scheduled', 'done', 'cancelled'] as const;
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];

/** The largest `every` of a repeat (a year in days). */
export const REMINDER_EVERY_MAX = 365;

export const REMINDER_PAGE_SIZE_DEFAULT = 50;
export const REMINDER_PAGE_SIZE_MAX = 200;
