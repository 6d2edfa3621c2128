import { indexPublishedOutbox } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Published outbox rows by publication time: what the relay's retention prunes. */
export class IndexPublishedOutbox1763800000000 implements MigrationInterface {
  name = 'IndexPublishedOutbox1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await indexPublishedOutbox(db, 'gateway');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX gateway.outbox_published`);
  }
}
