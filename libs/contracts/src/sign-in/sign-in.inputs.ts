import { IsString } from 'class-validator';
import { EmailField, TextField } from '../fields/field.decorators';
import { TextLength } from '../fields/text-length';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './sign-in.constants';

/**
 * The register's side of console sign-in (issue 12), on its admin queue: the gateway keeps the
 * sessions and asks the register who an e-mail is. One identity per e-mail (case-insensitive),
 * across every workspace it is a member of; one password per e-mail.
 */

/** The longest e-mail address (RFC 5321's path limit), as members are invited with. */
const EMAIL_MAX_LENGTH = 320;

/** Admin queue: e-mail a one-time sign-in link, if the address is an active member. */
export class SignInLinkInput {
  @EmailField({ max: EMAIL_MAX_LENGTH }) email!: string;
}

/**
 * Admin queue: redeem the token of an e-mailed link. Any string: a malformed token is refused
 * as an unknown one is, not by the validator (that would tell them apart).
 */
export class SignInTokenInput {
  @IsString() token!: string;
}

/** Admin queue: sign in with a password. Only bounded here; a wrong one is `unauthenticated`. */
export class PasswordSignInInput {
  @EmailField({ max: EMAIL_MAX_LENGTH }) email!: string;
  @TextField({ min: 1, max: PASSWORD_MAX_LENGTH }) password!: string;
}

/** Admin queue: set (or change, with the current one) the password of a signed-in e-mail. */
export class SetPasswordInput {
  @EmailField({ max: EMAIL_MAX_LENGTH }) email!: string;
  @TextField({ min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }) password!: string;

  /** Required when the e-mail has a password already. */
  @TextField({ min: 1, max: PASSWORD_MAX_LENGTH, optional: true })
  current_password?: string;
}

/** Admin queue: the memberships of an e-mail (a session re-reads them). */
export class EmailInput {
  @EmailField({ max: EMAIL_MAX_LENGTH }) email!: string;
}

/** Admin queue: one member of one workspace (a session re-reads its role and status). */
export class MemberRefInput {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 64) id!: string;
}
