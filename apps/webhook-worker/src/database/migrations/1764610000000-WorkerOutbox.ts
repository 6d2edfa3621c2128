import {
  addOutboxContext,
  createOutboxTable,
  dropOutboxNotify,
  indexPublishedOutbox,
  notifyOnOutboxInsert,
} from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35, item 7: the worker's own outbox, in the shape the gateway's and the register's
 * have reached (the four frozen steps in order). Its first rows are the notices of endpoints
 * it disabled for their failures (`internal.endpoint.disabled`), written in the statement
 * that disables them, so the register hears of every disable once committed and never of one
 * that rolled back. Additive: the version before ignores the table.
 */
export class WorkerOutbox1764610000000 implements MigrationInterface {
  name = 'WorkerOutbox1764610000000';

  async up(db: QueryRunner): Promise<void> {
    await createOutboxTable(db, 'delivery');
    await indexPublishedOutbox(db, 'delivery');
    await addOutboxContext(db, 'delivery');
    await notifyOnOutboxInsert(db, 'delivery');
  }

  async down(db: QueryRunner): Promise<void> {
    await dropOutboxNotify(db, 'delivery');
    await db.query(`DROP TABLE delivery.outbox`);
  }
}
