import { RetentionJob, type RetentionRule } from '@custodian/persistence';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { expiredSignInLinks } from './sign-in.store';

const EVERY_MS = 10 * 60_000;

/** Every 10 minutes, deletes the sign-in links past their 15 minutes, used or not. */
@Injectable()
export class SignInLinkPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(db: DataSource) {
    const logger = new Logger('SignInLinkPruner');
    super(db, EVERY_MS, (message) => logger.warn(message));
  }

  protected rule(): RetentionRule {
    return expiredSignInLinks();
  }
}
