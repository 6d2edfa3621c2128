import {
  DEFAULT_SECRET_OVERLAP_HOURS,
  DomainError,
  type ConsoleActorRef,
  type SigningSecretView,
} from '@custodian/contracts';
import { AppliedWrites } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import type { SecretCipher } from '@custodian/secret-cipher';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { rotateSecret, storedSecrets, type StoredSecrets } from './endpoint.store';
import { endpointActivity } from './endpoints.service';
import { newSigningSecret, signingSecretCipher } from './signing-secrets';

/**
 * An endpoint's signing secret, shown on demand and rotated with an overlap: the new secret
 * signs at once, and until the overlap ends every delivery also carries the previous secret's
 * signature (X-Custodian-Signature lists both), so a receiver can switch secrets whenever it
 * likes within it. Rotating again during an overlap makes the then-current secret the
 * previous one; the one before is dropped. Secrets never appear in a log line.
 */
@Injectable()
export class SigningSecretService {
  private readonly logger = new Logger('SigningSecretService');
  private readonly cipher: SecretCipher;

  constructor(
    private readonly db: DataSource,
    @Inject(WorkerConfig) config: WorkerConfig,
    private readonly activity: ActivityLog,
    private readonly writes: AppliedWrites,
  ) {
    this.cipher = signingSecretCipher(config);
  }

  async reveal(workspace: string, id: string): Promise<SigningSecretView> {
    const view = await this.current(workspace, id);
    this.logger.log(`signing secret of webhook endpoint ${id} revealed (workspace ${workspace})`);
    return view;
  }

  /** A new secret; the current one keeps signing too for `overlapHours` (0: not at all). */
  async rotate(
    workspace: string,
    id: string,
    overlapHours = DEFAULT_SECRET_OVERLAP_HOURS,
    actor?: ConsoleActorRef,
  ): Promise<SigningSecretView> {
    const secret = newSigningSecret();
    // Applied once per request: a rotation handed over again (a redelivery, a console retry
    // with its Idempotency-Key) must not rotate a second time, which would retire the secret
    // the first answer gave out. The stored reply names no secret; a repeat is answered with
    // the secrets as they are now (those the first rotation made).
    const { result: stored } = await this.writes.apply(
      workspace,
      async (tx) => {
        const row = await rotateSecret(
          tx,
          workspace,
          id,
          this.cipher.encrypt(secret),
          overlapHours,
        );
        if (!row) throw notFound(id);
        // The secrets themselves never reach the feed: only that one was rotated, and the overlap.
        await this.activity.record(tx, workspace, {
          ...endpointActivity(actor),
          recordType: 'endpoint',
          recordId: id,
          recordName: row.url,
          action: 'secret_rotated',
          changes: [{ field: 'overlap_hours', from: null, to: String(overlapHours) }],
        });
        return row;
      },
      () => ({ rotated: id }),
    );
    if (!stored) return this.current(workspace, id);
    this.logger.log(
      `signing secret of webhook endpoint ${id} rotated (workspace ${workspace}); ` +
        (overlapHours > 0
          ? `the previous one signs too for ${overlapHours} h`
          : 'the previous one no longer signs'),
    );
    return this.view(stored);
  }

  private async current(workspace: string, id: string): Promise<SigningSecretView> {
    const stored = await storedSecrets(this.db, workspace, id);
    if (!stored) throw notFound(id);
    return this.view(stored);
  }

  private view(stored: StoredSecrets): SigningSecretView {
    const { previous_secret: previous, previous_secret_expires_at: expiresAt } = stored;
    return {
      secret: this.cipher.decrypt(stored.secret),
      previous:
        previous && expiresAt
          ? { secret: this.cipher.decrypt(previous), expires_at: expiresAt.toISOString() }
          : null,
    };
  }
}

function notFound(id: string): DomainError {
  return new DomainError('not_found', `webhook endpoint ${id} not found`);
}
