import { RetentionJob, type RetentionRule } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RegisterConfig } from '../config/register-config';

const EVERY_MS = 60 * 60_000;

/**
 * Invitations accepted, or expired unaccepted, more than `days` ago (an open one is never
 * touched): their token hashes and e-mails are kept no longer than they serve the invitation
 * list and a late click's "expired" answer.
 */
export function invitationRetention(days: number): RetentionRule {
  return {
    table: 'register.invitations',
    where: `coalesce(accepted_at, expires_at) < now() - make_interval(days => $1)`,
    parameters: [days],
  };
}

/** Every hour, deletes what invitationRetention picks (issue 31: the table grew without end). */
@Injectable()
export class InvitationPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    db: DataSource,
    @Inject(RegisterConfig) private readonly config: RegisterConfig,
  ) {
    const logger = new Logger('InvitationPruner');
    super(db, EVERY_MS, (message) => logger.warn(message));
  }

  protected rule(): RetentionRule {
    return invitationRetention(this.config.INVITATION_RETENTION_DAYS);
  }
}
