import { createAppliedRequestsTable } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31, item 8: the worker's console writes (endpoint create, change, delete, secret
 * rotation) applied once per request, as the register's are: a request the broker hands over
 * again, or a console retry with its Idempotency-Key, finds its record and its stored reply.
 * Additive: the version before runs beside it, and ignores the table.
 */
export class AppliedRequests1764200000000 implements MigrationInterface {
  name = 'AppliedRequests1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await createAppliedRequestsTable(db, 'delivery');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery.applied_requests`);
  }
}
