export const PERSON_STATUSES = ['active', 'inactive'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

/**
 * Holdings embedded in a person (the single fetch, employee.* events): the most recent
 * check-outs; `holdings_count` says how many there are, `GET /assets?assigned_to_id=` lists all.
 */
export const PERSON_HOLDINGS_MAX = 50;
