import { indexPublishedOutbox } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Published outbox rows by publication time: what the relay's retention prunes. */
export class IndexPublishedOutbox1763810000000 implements MigrationInterface {
  name = 'IndexPublishedOutbox1763810000000';

  async up(db: QueryRunner): Promise<void> {
    await indexPublishedOutbox(db, 'register');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX register.outbox_published`);
  }
}
