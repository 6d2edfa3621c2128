import { ArrayMaxSize, IsArray, IsEmail, IsOptional, IsString } from 'class-validator';
import { TextLength } from '../fields/text-length';
import { EmailField, EnumField, TextField } from '../fields/field.decorators';
import { MEMBER_ROLES, type MemberRole } from './member.constants';

/** Body of POST /members. Unknown fields are refused by the validator (whitelist). */
export class InviteMemberInput {
  @EmailField({ max: 320 }) email!: string;
  @EnumField(MEMBER_ROLES, { optional: true, nullable: true }) role?: MemberRole;

  @TextField({ min: 1, max: 200, notBlank: true, optional: true, nullable: true })
  name?: string | null;
}

/** Body of PATCH /members/{userId}. */
export class UpdateMemberInput {
  @EnumField(MEMBER_ROLES) role!: MemberRole;
}

/**
 * Admin queue (the console): remove member `id` of `workspace`, as the member `actor` (the
 * signed-in member, whose role the register reads itself and the hierarchy bounds).
 */
export class MemberRemoveInput {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 64) id!: string;
  @IsString() @TextLength(1, 64) actor!: string;
}

/** Admin queue (the console): give member `id` the role `role`, as the member `actor`. */
export class MemberRoleInput extends MemberRemoveInput {
  @EnumField(MEMBER_ROLES) role!: MemberRole;

  /** The console's If-Match, as ConditionalRecordMessage carries it for the API's PATCH. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @TextLength(1, 110, { each: true })
  if_match?: string[];
}

/** Admin queue: `invitation list --workspace W`. */
export class InvitationListInput {
  @IsString() @TextLength(1, 64) workspace!: string;
}

/** Admin queue: `invitation renew --id I`, a new link for an open invitation (a lost e-mail). */
export class InvitationRenewInput {
  @IsString() @TextLength(1, 64) id!: string;
}

/**
 * `POST /api/v1/invitations/accept`: the token in the body, where no log or proxy keeps it. The
 * query string (`?token=`) still works for callers that used it (and the invitation page's
 * button); both at once must agree.
 */
export class AcceptInvitationBody {
  /** No body at all is fine (the token is then in the query string): nothing to check. */
  static accepts(value: unknown): boolean {
    return value === undefined;
  }

  @TextField({
    min: 1,
    max: 128,
    optional: true,
    description: 'The token of the invitation e-mail (the query string `token` also works).',
  })
  token?: string;
}

/** Admin queue and the public accept link: `invitation accept --token T`. */
export class InvitationAcceptInput {
  @IsString()
  @TextLength(1, 128)
  token!: string;
  /** Where it was accepted, for the activity feed: absent is the admin CLI. */
  @EnumField(['console', 'api'], { optional: true }) via?: 'console' | 'api';
}

/** Admin queue: the owner of a new workspace (`workspace create --owner-email E`). */
export class OwnerCreateInput {
  @IsString() @TextLength(1, 64) workspace!: string;

  @IsString()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @TextLength(undefined, 320)
  email!: string;

  @IsOptional() @IsString() @TextLength(1, 200) name?: string;
}
