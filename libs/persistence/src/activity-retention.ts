import { encodeTime } from 'ulid';
import type { Queryable } from './database';
import { RetentionJob, type RetentionRule } from './retention-job';

const EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The entries of an app's activity table older than `days`. Activity ids are ULIDs (newId),
 * whose first ten characters are the time they were made: every entry older than the cut-off
 * has a smaller id, so the delete walks the primary key, with no index on `at` to keep.
 */
export function activityRetention(schema: string, days: number, now = Date.now()): RetentionRule {
  return {
    table: `${schema}.activity`,
    where: 'id < $1',
    parameters: [`act_${encodeTime(now - days * DAY_MS, 10).toLowerCase()}`],
  };
}

/**
 * An app's activity retention: every hour, the entries older than its retention are deleted
 * in batches (issue 31: the table grew without end). A provider of each app
 * (`ACTIVITY_RETENTION_DAYS`).
 */
export class ActivityRetentionJob extends RetentionJob {
  constructor(
    db: Queryable,
    private readonly schema: string,
    private readonly days: number,
    warn: (message: string) => void,
  ) {
    super(db, EVERY_MS, warn);
  }

  protected rule(): RetentionRule {
    return activityRetention(this.schema, this.days);
  }
}
