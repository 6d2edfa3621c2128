/** What kind of work a maintenance record is. */
export const MAINTENANCE_TYPES = ['repair', 'service', 'inspection', 'upgrade'] as const;
export type MaintenanceType = (typeof MAINTENANCE_TYPES)[number];

/** Open until resolved; resolved once. */
export const MAINTENANCE_STATUSES = ['open', 'resolved'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

export const MAINTENANCE_PAGE_SIZE_DEFAULT = 50;
export const MAINTENANCE_PAGE_SIZE_MAX = 200;
