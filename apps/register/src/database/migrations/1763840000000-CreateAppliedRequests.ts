import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Write requests applied, with their replies: a request handed over twice is applied once. */
export class CreateAppliedRequests1763840000000 implements MigrationInterface {
  name = 'CreateAppliedRequests1763840000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE TABLE register.applied_requests (
         id text NOT NULL,
         workspace_id text NOT NULL,
         fingerprint text,
         reply json,
         created_at timestamptz NOT NULL DEFAULT now(),
         expires_at timestamptz NOT NULL,
         CONSTRAINT applied_requests_pkey PRIMARY KEY (id))`,
    );
    await db.query(
      `CREATE INDEX applied_requests_expiry ON register.applied_requests (expires_at)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.applied_requests`);
  }
}
