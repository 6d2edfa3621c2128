import type { Import, ImportRow } from '@custodian/console-client';

export const IMPORT_STATUS_LABEL: Record<Import['status'], string> = {
  uploading: 'Uploading',
  planning: 'Dry run',
  planned: 'Ready to import',
  importing: 'Importing',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export const IMPORT_STATUS_BADGE: Record<Import['status'], string> = {
  uploading: 'badge-pending',
  planning: 'badge-pending',
  planned: 'badge-on',
  importing: 'badge-pending',
  completed: 'badge-off',
  cancelled: 'badge-off',
  failed: 'badge-failed',
};

export const IMPORT_TYPE_LABEL: Record<Import['type'], string> = {
  assets: 'Assets',
  people: 'People',
};

export const PLAN_LABEL: Record<NonNullable<ImportRow['plan']>, string> = {
  create: 'Create',
  update: 'Update',
  refuse: 'Refuse',
};

export const RESULT_LABEL: Record<NonNullable<ImportRow['result']>, string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  refused: 'Refused',
};

/** While a job works on it, the page reads the import again every second. */
export function isRunning(status: Import['status']): boolean {
  return status === 'uploading' || status === 'planning' || status === 'importing';
}

/** Applying has begun (or ended): the rows show what importing did, not only the plan. */
export function hasResults(status: Import['status']): boolean {
  return status === 'importing' || status === 'completed' || status === 'cancelled';
}

/** What the import is called on screen: its file's name, else what it brings in. */
export function importTitle(job: Pick<Import, 'filename' | 'type'>): string {
  return job.filename ?? `Import of ${job.type}`;
}

/** The columns a row is shown by: the ones that say which record it is, as the file has them. */
const IDENTIFYING: Record<Import['type'], readonly string[]> = {
  assets: ['name', 'asset_tag', 'serial_number'],
  people: ['full_name', 'email', 'employee_number'],
};

/**
 * Up to three of the file's columns to show each row by: those that name the record first,
 * in the file's order, then the first others, so a file of custom fields still shows something.
 */
export function shownColumns(job: Pick<Import, 'columns' | 'type'>): string[] {
  const named = job.columns.filter((column) => IDENTIFYING[job.type].includes(column));
  const others = job.columns.filter((column) => !named.includes(column));
  return [...named, ...others].slice(0, 3);
}

/** "Importing 3 rows: 2 created, 1 updated. 1 refused row is skipped." for the confirmation. */
export function startText(job: Pick<Import, 'plan'>): string {
  const { create, update, refuse } = job.plan;
  const rows = (count: number) => `${count.toLocaleString('en')} ${count === 1 ? 'row' : 'rows'}`;
  const parts = [
    `${create.toLocaleString('en')} to create`,
    `${update.toLocaleString('en')} to update`,
  ];
  const skipped =
    refuse === 0 ? '' : ` ${rows(refuse)} ${refuse === 1 ? 'is' : 'are'} refused and skipped.`;
  return `Importing ${rows(create + update)}: ${parts.join(', ')}.${skipped}`;
}
