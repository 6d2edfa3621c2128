import { SecretCipher } from '@custodian/secret-cipher';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WEBHOOK_SECRET_KEYS, WorkerConfig, loadWorkerConfig } from '../config/worker-config';
import type { EndpointEntity } from './endpoint.entity';

/** A new endpoint signing secret, `whsec_` + 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Endpoints re-encrypted per statement. */
export const REKEY_BATCH = 500;

/**
 * The cipher of the endpoints' signing secrets. They are stored encrypted with
 * WEBHOOK_SECRET_KEYS so that a database dump alone cannot sign webhooks as us; only the sender
 * decrypts one, just before it signs. Without a config, the one the worker starts with
 * (process.env), which is what its migrations read too.
 */
export function signingSecretCipher(
  config: Pick<WorkerConfig, 'WEBHOOK_SECRET_KEYS'> = loadWorkerConfig(),
): SecretCipher {
  return SecretCipher.fromSetting(config.WEBHOOK_SECRET_KEYS, WEBHOOK_SECRET_KEYS);
}

/** A stored secret no listed key decrypts, by the key id it names. */
class UnreadableSecret extends Error {
  constructor(readonly keyId: string | null) {
    super('signing secret unreadable');
  }
}

export interface RekeyResult {
  reencrypted: number;
  /** Statements that wrote re-encrypted secrets. */
  batches: number;
  /** Secrets that do not decrypt with any key listed, by the key id they name. */
  unreadable: Record<string, number>;
}

/**
 * The second half of a key rotation: at start, secrets (current, and previous during a
 * signing-secret overlap) encrypted with a key other than the first of WEBHOOK_SECRET_KEYS
 * are re-encrypted with the first, REKEY_BATCH endpoints per
 * statement, in the background (the worker serves meanwhile: every listed key still
 * decrypts). Each row is written only if its secret is still the one read, so replicas doing
 * the same at once, or a change in between, lose nothing. Once it has logged that nothing is
 * left under the old key, that key can be dropped from the list.
 */
@Injectable()
export class SigningSecretRekeyer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SigningSecretRekeyer');
  private readonly cipher: SecretCipher;
  private running: Promise<RekeyResult> | null = null;
  private stopping = false;

  constructor(
    private readonly db: DataSource,
    @Inject(WorkerConfig) config: WorkerConfig,
  ) {
    this.cipher = signingSecretCipher(config);
  }

  onApplicationBootstrap(): void {
    void this.rekey();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  rekey(batch = REKEY_BATCH): Promise<RekeyResult> {
    this.running ??= this.rekeyAll(batch).finally(() => (this.running = null));
    return this.running;
  }

  /** The secret under the current key; one already under it is left as it is. */
  private reencrypt(stored: string): string {
    if (SecretCipher.keyIdOf(stored) === this.cipher.currentKeyId) return stored;
    try {
      return this.cipher.encrypt(this.cipher.decrypt(stored));
    } catch {
      throw new UnreadableSecret(SecretCipher.keyIdOf(stored));
    }
  }

  private async rekeyAll(batch: number): Promise<RekeyResult> {
    const result: RekeyResult = { reencrypted: 0, batches: 0, unreadable: {} };
    const current = this.cipher.currentKeyId;
    try {
      // Keyset pagination: a row that cannot be re-encrypted is passed, not read again.
      let after = '';
      while (!this.stopping) {
        const rows = await this.db.query<
          Array<Pick<EndpointEntity, 'id' | 'secret' | 'previous_secret'>>
        >(
          `SELECT id, secret, previous_secret FROM delivery.endpoints
           WHERE id > $1 AND (split_part(secret, ':', 2) <> $2
             OR split_part(previous_secret, ':', 2) <> $2)
           ORDER BY id LIMIT $3`,
          [after, current, batch],
        );
        const last = rows.at(-1);
        if (!last) break;
        after = last.id;
        const changes: Array<{
          id: string;
          old: string;
          next: string;
          oldPrevious: string | null;
          nextPrevious: string | null;
        }> = [];
        for (const row of rows) {
          try {
            changes.push({
              id: row.id,
              old: row.secret,
              next: this.reencrypt(row.secret),
              oldPrevious: row.previous_secret,
              nextPrevious: row.previous_secret && this.reencrypt(row.previous_secret),
            });
          } catch (error) {
            const keyId = (error as UnreadableSecret).keyId ?? 'none';
            result.unreadable[keyId] = (result.unreadable[keyId] ?? 0) + 1;
          }
        }
        if (changes.length > 0) {
          // TypeORM's Postgres driver answers an UPDATE with [rows, affectedCount].
          const [, count] = await this.db.query<[unknown[], number]>(
            `UPDATE delivery.endpoints e SET secret = c.next, previous_secret = c.next_previous
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
               AS c (id, old, next, old_previous, next_previous)
             WHERE e.id = c.id AND e.secret = c.old
               AND e.previous_secret IS NOT DISTINCT FROM c.old_previous`,
            [
              changes.map((c) => c.id),
              changes.map((c) => c.old),
              changes.map((c) => c.next),
              changes.map((c) => c.oldPrevious),
              changes.map((c) => c.nextPrevious),
            ],
          );
          result.reencrypted += count;
          result.batches++;
        }
        if (rows.length < batch) break;
      }
    } catch (error) {
      this.logger.warn(
        `re-encrypting webhook signing secrets stopped (the next start resumes): ${(error as Error).message}`,
      );
    }
    if (result.reencrypted > 0) {
      this.logger.log(
        `re-encrypted ${result.reencrypted} webhook signing secrets with key ${current}`,
      );
    }
    const unreadable = Object.entries(result.unreadable);
    if (unreadable.length > 0) {
      const total = unreadable.reduce((sum, [, n]) => sum + n, 0);
      this.logger.error(
        `${total} webhook signing secrets do not decrypt with ${WEBHOOK_SECRET_KEYS} ` +
          `(key ${unreadable.map(([id, n]) => `${id}: ${n}`).join(', ')}); their deliveries ` +
          'are not sent until the key that encrypted them is listed again',
      );
    }
    return result;
  }
}
