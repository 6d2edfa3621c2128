/** Seats a licence may have (null: unlimited). */
export const LICENSE_SEATS_MAX = 1_000_000;
export const LICENSE_PAGE_SIZE_DEFAULT = 50;
export const LICENSE_PAGE_SIZE_MAX = 200;
/** A cost: a decimal with at most two places, up to 12 digits before the point. */
export const LICENSE_COST_PATTERN = '^\\d{1,12}(\\.\\d{1,2})?$';
