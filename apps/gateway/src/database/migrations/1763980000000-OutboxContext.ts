import { addOutboxContext } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 15: an outbox row keeps the context (request id) of the request that wrote it. */
export class OutboxContext1763980000000 implements MigrationInterface {
  name = 'OutboxContext1763980000000';

  async up(db: QueryRunner): Promise<void> {
    await addOutboxContext(db, 'gateway');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.outbox DROP COLUMN context`);
  }
}
