import { createAppliedRequestsTable } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31, item 8: the gateway's own console write (an API key created with an
 * Idempotency-Key) applied once, as the register's and the worker's writes are. Additive.
 */
export class AppliedRequests1764200000000 implements MigrationInterface {
  name = 'AppliedRequests1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await createAppliedRequestsTable(db, 'gateway');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.applied_requests`);
  }
}
