import type { MigrationInterface, QueryRunner } from 'typeorm';
import { signingSecretCipher } from '../../webhooks/signing-secrets';

/** Rows per statement, so that neither memory nor one statement grows with the table. */
const BATCH = 500;

/**
 * Signing secrets stored in plain text are encrypted with the first key of
 * WEBHOOK_SECRET_KEYS, read from the environment as the worker reads it; from here on a check
 * refuses a plain secret. Down decrypts them again (every key they name must be listed).
 */
export class EncryptEndpointSecrets1763850000000 implements MigrationInterface {
  name = 'EncryptEndpointSecrets1763850000000';

  async up(db: QueryRunner): Promise<void> {
    const cipher = signingSecretCipher();
    await rewrite(db, `secret NOT LIKE 'v1:%'`, (secret) => cipher.encrypt(secret));
    await db.query(
      `ALTER TABLE delivery.endpoints
       ADD CONSTRAINT endpoints_secret_encrypted CHECK (secret LIKE 'v1:%')`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    const cipher = signingSecretCipher();
    await db.query(`ALTER TABLE delivery.endpoints DROP CONSTRAINT endpoints_secret_encrypted`);
    await rewrite(db, `secret LIKE 'v1:%'`, (secret) => cipher.decrypt(secret));
  }
}

/** Rewrites the secret of every endpoint matching `where`, BATCH at a time, in id order. */
async function rewrite(
  db: QueryRunner,
  where: string,
  change: (secret: string) => string,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await db.query(
      `SELECT id, secret FROM delivery.endpoints WHERE id > $1 AND ${where}
       ORDER BY id LIMIT ${BATCH}`,
      [after],
    )) as Array<{ id: string; secret: string }>;
    const last = rows.at(-1);
    if (!last) return;
    await db.query(
      `UPDATE delivery.endpoints e SET secret = c.secret
       FROM unnest($1::text[], $2::text[]) AS c (id, secret) WHERE e.id = c.id`,
      [rows.map((row) => row.id), rows.map((row) => change(row.secret))],
    );
    after = last.id;
  }
}
