import {
  DomainError,
  SIGN_IN_LINK_TTL_MINUTES,
  type EmailInput,
  type PasswordSetView,
  type PasswordSignInInput,
  type SetPasswordInput,
  type SignInIdentity,
  type SignInLinkInput,
  type SignInLinkView,
  type SignInTokenInput,
} from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { RegisterConfig } from '../config/register-config';
import { Mailer, type MailMessage } from '../mail/mailer';
import { activeMemberships } from '../members/member.store';
import { consoleLink, hashToken, isWellFormedToken, newToken } from '../tokens/one-time-token';
import type { LoginEntity } from './login.entity';
import { hashPassword, verifyPassword } from './passwords';
import {
  deleteOldestOpenLinks,
  insertSignInLink,
  lockEmail,
  loginByEmail,
  loginByLowerEmail,
  redeemSignInLink,
  upsertLogin,
} from './sign-in.store';

/**
 * Unused, unexpired links an e-mail may hold: a sixth invalidates the oldest, so the newest
 * link always works and a flood of requests cannot lock anyone out (the gateway limits how
 * often they are asked for).
 */
export const MAX_OPEN_SIGN_IN_LINKS = 5;

const INVALID_LINK = 'This sign-in link is invalid, used or expired; ask for a new one';
const WRONG_PASSWORD = 'E-mail or password is incorrect';
const NO_MEMBERSHIP =
  'This e-mail is not an active member of any workspace; ask a workspace admin to invite it';

/**
 * The register's side of console sign-in: who an e-mail is (its active memberships), proven
 * by a one-time e-mailed link or a password. An e-mail is one identity across its workspaces,
 * compared as Postgres's lower() compares members' e-mails.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly db: DataSource,
    private readonly config: RegisterConfig,
    private readonly mailer: Mailer,
  ) {}

  /** The e-mail's active memberships (none is an answer too: the gateway decides). */
  async memberships(input: EmailInput): Promise<SignInIdentity> {
    return identityOf(this.db.manager, input.email);
  }

  /**
   * Mails a link only to an active member; the reply says whether, for the gateway alone (it
   * answers the same either way, so the address's membership is not told to the asker).
   */
  async sendLink(input: SignInLinkInput): Promise<SignInLinkView> {
    const token = newToken();
    const issued = await this.db.transaction(async (tx) => {
      const identity = await identityOf(tx, input.email);
      if (identity.memberships.length === 0) return null;
      await lockEmail(tx, identity.email);
      await deleteOldestOpenLinks(tx, identity.email, MAX_OPEN_SIGN_IN_LINKS - 1);
      return insertSignInLink(
        tx,
        { id: randomUUID(), email_lower: identity.email, token_hash: hashToken(token) },
        SIGN_IN_LINK_TTL_MINUTES,
      );
    });
    if (!issued) return { sent: false };
    // After the commit: the link in the mail works by the time it arrives.
    this.mailer.send(this.linkMail(input.email.trim(), token, issued.expires_at));
    return { sent: true };
  }

  /** One use: of concurrent redeems of a token, the one whose UPDATE marks it wins. */
  async redeem(input: SignInTokenInput): Promise<SignInIdentity> {
    if (!isWellFormedToken(input.token)) throw new DomainError('unauthenticated', INVALID_LINK);
    const link = await redeemSignInLink(this.db, hashToken(input.token));
    if (!link) throw new DomainError('unauthenticated', INVALID_LINK);
    return signedIn(await identityOf(this.db.manager, link.email_lower));
  }

  /** A wrong password, an unknown e-mail and one without a password look (and take) the same. */
  async signInWithPassword(input: PasswordSignInInput): Promise<SignInIdentity> {
    const login = await loginByEmail(this.db, input.email.trim());
    if (!(await verifyPassword(login?.password_hash ?? null, input.password))) {
      throw new DomainError('unauthenticated', WRONG_PASSWORD);
    }
    return signedIn(await identityOf(this.db.manager, input.email));
  }

  /**
   * Sets the e-mail's one password (all its workspaces). Changing one needs the current one,
   * so a session left open is not enough to take the account over.
   */
  async setPassword(input: SetPasswordInput): Promise<PasswordSetView> {
    // Hashed before the transaction: argon2's tens of milliseconds hold no lock.
    const next = await hashPassword(input.password);
    const updated = await this.storePassword(input, next).catch((error: unknown) => {
      throw withoutRowValues(error);
    });
    // After the commit: the member hears of every change, so a change they did not make (a
    // stolen session with the old password) does not go unseen.
    this.mailer.send(this.passwordMail(input.email.trim(), updated.updated_at));
    return { updated_at: updated.updated_at.toISOString() };
  }

  private passwordMail(to: string, at: Date): MailMessage {
    return {
      to,
      subject: 'Your Custodian password was set',
      text: [
        'Hello,',
        '',
        `The password of ${to} for the Custodian console was set at ${at.toISOString()}.`,
        'Every other console session of this e-mail was signed out.',
        '',
        'If this was not you, sign in with a link sent to this address, set a new password,',
        'and tell an owner of your workspace.',
      ].join('\n'),
    };
  }

  private storePassword(
    input: SetPasswordInput,
    next: string,
  ): Promise<Pick<LoginEntity, 'updated_at'>> {
    return this.db.transaction(async (tx) => {
      const identity = signedIn(await identityOf(tx, input.email));
      // Serialises two first passwords of one e-mail: the second must then give the first.
      await lockEmail(tx, identity.email);
      const login = await loginByLowerEmail(tx, identity.email);
      if (login) await assertCurrentPassword(login.password_hash, input.current_password);
      return upsertLogin(tx, identity.email, next);
    });
  }

  private linkMail(to: string, token: string, expiresAt: Date): MailMessage {
    return {
      to,
      subject: 'Sign in to Custodian',
      text: [
        'Hello,',
        '',
        'Open this link to sign in to the Custodian console:',
        '',
        consoleLink(this.config.PUBLIC_BASE_URL, 'sign-in/link', token),
        '',
        `The link works once, until ${expiresAt.toISOString()}.`,
        'If you did not ask to sign in, ignore this e-mail.',
      ].join('\n'),
    };
  }
}

/** The e-mail (lower case) and its active memberships, oldest joined first. */
async function identityOf(db: EntityManager, email: string): Promise<SignInIdentity> {
  const rows = await activeMemberships(db, email.trim());
  // The LEFT JOIN gives one row (without a member) when the e-mail has no membership.
  const [first] = rows;
  if (!first) throw new Error('the memberships query returned no row');
  const memberships = rows.flatMap(({ workspace_id, member_id, role, name }) =>
    member_id === null ? [] : [{ workspace_id, member_id, role, name }],
  );
  return { email: first.email, memberships };
}

/** An identity that may sign in: one active membership at least. */
function signedIn(identity: SignInIdentity): SignInIdentity {
  if (identity.memberships.length === 0) throw new DomainError('unauthenticated', NO_MEMBERSHIP);
  return identity;
}

async function assertCurrentPassword(stored: string, current: string | undefined): Promise<void> {
  if (current === undefined) {
    throw new DomainError(
      'invalid_input',
      'current_password is required to change an existing password',
    );
  }
  if (!(await verifyPassword(stored, current))) {
    throw new DomainError('unauthenticated', 'current_password is incorrect');
  }
}

/**
 * A failed statement's error carries its parameters and Postgres's `detail` (for a check, the
 * failing row), here with a password hash; an unhandled error is logged whole, so they go first.
 */
function withoutRowValues(error: unknown): unknown {
  if (error instanceof QueryFailedError) {
    const failed = error as QueryFailedError & {
      parameters: unknown[] | undefined;
      detail?: unknown;
      driverError?: { detail?: unknown };
    };
    failed.parameters = undefined;
    if ('detail' in failed) failed.detail = undefined;
    if (failed.driverError && 'detail' in failed.driverError) failed.driverError.detail = undefined;
  }
  return error;
}
