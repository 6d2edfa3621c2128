import { queryOne, queryRows, type Queryable, type RetentionRule } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { LoginEntity } from './login.entity';
import type { SignInLinkEntity } from './sign-in-link.entity';

/*
 * register.sign_in_links and register.logins: their SQL and their row types, and the lock of
 * one e-mail's links and password. An e-mail's memberships are the members' table
 * (members/member.store.ts).
 */

/** Until the transaction ends, the one writer of this e-mail's links and password. */
export async function lockEmail(tx: EntityManager, emailLower: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    `sign-in:${emailLower}`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Links

/**
 * Deletes the e-mail's unused, unexpired links but the newest `keep`, so that one more leaves
 * at most `keep + 1` open.
 */
export async function deleteOldestOpenLinks(
  tx: EntityManager,
  emailLower: string,
  keep: number,
): Promise<void> {
  await tx.query(
    `DELETE FROM register.sign_in_links WHERE id IN (
           SELECT id FROM register.sign_in_links
           WHERE email_lower = $1 AND used_at IS NULL AND expires_at > now()
           ORDER BY created_at DESC, id DESC OFFSET $2)`,
    [emailLower, keep],
  );
}

/** The columns a link is created with; it expires `ttlMinutes` from now. */
export type NewSignInLinkRow = Pick<SignInLinkEntity, 'id' | 'email_lower' | 'token_hash'>;

export function insertSignInLink(
  tx: EntityManager,
  link: NewSignInLinkRow,
  ttlMinutes: number,
): Promise<Pick<SignInLinkEntity, 'expires_at'>> {
  return queryOne<Pick<SignInLinkEntity, 'expires_at'>>(
    tx,
    `INSERT INTO register.sign_in_links (id, email_lower, token_hash, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(mins => $4))
         RETURNING expires_at`,
    [link.id, link.email_lower, link.token_hash, ttlMinutes],
  );
}

/**
 * Marks the unused, unexpired link of this token hash used and returns its e-mail; undefined
 * when there is none. Of concurrent redeems of a token, the one whose UPDATE marks it wins.
 */
export async function redeemSignInLink(
  db: Queryable,
  tokenHash: Buffer,
): Promise<Pick<SignInLinkEntity, 'email_lower'> | undefined> {
  const [link] = await queryRows<Pick<SignInLinkEntity, 'email_lower'>>(
    db,
    `UPDATE register.sign_in_links SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING email_lower`,
    [tokenHash],
  );
  return link;
}

/** What SignInLinkPruner deletes: the links past their expiry, used or not. */
export function expiredSignInLinks(): RetentionRule {
  return { table: 'register.sign_in_links', where: 'expires_at <= now()', parameters: [] };
}

// ---------------------------------------------------------------------------------------------
// Passwords

export type LoginPasswordRow = Pick<LoginEntity, 'password_hash'>;

/** The password of an e-mail as given (Postgres takes its lower case), if it has one. */
export async function loginByEmail(
  db: Queryable,
  email: string,
): Promise<LoginPasswordRow | undefined> {
  const [login] = await queryRows<LoginPasswordRow>(
    db,
    `SELECT password_hash FROM register.logins WHERE email_lower = lower($1)`,
    [email],
  );
  return login;
}

/** The password of an e-mail already in lower case, if it has one. */
export async function loginByLowerEmail(
  db: Queryable,
  emailLower: string,
): Promise<LoginPasswordRow | undefined> {
  const [login] = await queryRows<LoginPasswordRow>(
    db,
    `SELECT password_hash FROM register.logins WHERE email_lower = $1`,
    [emailLower],
  );
  return login;
}

/** Sets the e-mail's password, its first or a new one. */
export function upsertLogin(
  tx: EntityManager,
  emailLower: string,
  passwordHash: string,
): Promise<Pick<LoginEntity, 'updated_at'>> {
  return queryOne<Pick<LoginEntity, 'updated_at'>>(
    tx,
    `INSERT INTO register.logins (email_lower, password_hash) VALUES ($1, $2)
         ON CONFLICT (email_lower)
           DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()
         RETURNING updated_at`,
    [emailLower, passwordHash],
  );
}
