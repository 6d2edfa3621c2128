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
import { secretsToRekey, writeRekeyed, type RekeyedSecrets } from './endpoint.store';

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
        const rows = await secretsToRekey(this.db, after, current, batch);
        const last = rows.at(-1);
        if (!last) break;
        after = last.id;
        const changes: RekeyedSecrets[] = [];
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
          const count = await writeRekeyed(this.db, changes);
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
