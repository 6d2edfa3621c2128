/** What a CSV import brings in (issue 35). */
export const IMPORT_TYPES = ['assets', 'people'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/**
 * An import's life: rows arrive (`uploading`), each is planned, a dry run of what it would do
 * (`planning`), then the plan waits for a go (`planned`) unless none was asked for, rows are
 * applied (`importing`) and it ends `completed`, or `cancelled`, or `failed` (an upload cut
 * short).
 */
export const IMPORT_STATUSES = [
  'uploading',
  'planning',
  'planned',
  'importing',
  'completed',
  'cancelled',
  'failed',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What the dry run says a row will do. */
export const IMPORT_PLANS = ['create', 'update', 'refuse'] as const;
export type ImportPlan = (typeof IMPORT_PLANS)[number];

/** What importing a row did. */
export const IMPORT_RESULTS = ['created', 'updated', 'unchanged', 'refused'] as const;
export type ImportResult = (typeof IMPORT_RESULTS)[number];

/** The largest CSV body an import takes. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** The most rows one import holds. */
export const IMPORT_MAX_ROWS = 200_000;
/** Rows the gateway sends the register per message while a file uploads. */
export const IMPORT_APPEND_ROWS = 1_000;
/** The most columns a file may have. */
export const IMPORT_MAX_COLUMNS = 200;
