import { dropOutboxNotify, notifyOnOutboxInsert } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An insert into the outbox wakes the relay at commit (LISTEN/NOTIFY), not at its next poll. */
export class NotifyOutbox1763990000000 implements MigrationInterface {
  name = 'NotifyOutbox1763990000000';

  async up(db: QueryRunner): Promise<void> {
    await notifyOnOutboxInsert(db, 'gateway');
  }

  async down(db: QueryRunner): Promise<void> {
    await dropOutboxNotify(db, 'gateway');
  }
}
