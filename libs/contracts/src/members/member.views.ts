import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, IdField, TextField, TimestampField } from '../fields/field.decorators';
import {
  MEMBER_ROLES,
  MEMBER_STATUSES,
  type MemberRole,
  type MemberStatus,
} from './member.constants';

const ROLE = {
  description: 'Role in the workspace, highest first: ' + MEMBER_ROLES.join(', ') + '.',
};

export const MEMBER_EXAMPLE = {
  id: 'usr_01jd8x9z8y7x6w5v4t3s2r1q0p',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  role: 'member',
  status: 'invited',
  invited_at: '2026-11-22T10:15:00.000Z',
  joined_at: null,
} as const satisfies Member;

/** A workspace member: a login, not a person record (spec 2.3). */
@ContractSchema({
  name: 'Member',
  description:
    'A workspace member (a login, not a person record). The body of `POST /members` (201, ' +
    'the invited member), `PATCH /members/{userId}` (200) and ' +
    '`POST /invitations/accept` (200, the member now active); the items of `GET /members`; ' +
    'the `data` of `member.invited`.',
  examples: [MEMBER_EXAMPLE],
})
export class Member {
  @IdField('usr', 'The user id (the `{userId}` of `PATCH /members/{userId}`): `usr_` + a ULID.')
  id!: string;

  @TextField({ description: 'E-mail address, as written when invited.' })
  email!: string;

  @TextField({ nullable: true, description: 'Display name, or null when not given.' })
  name!: string | null;

  @EnumField(MEMBER_ROLES, ROLE)
  role!: MemberRole;

  @EnumField(MEMBER_STATUSES, {
    description: '`invited` until the invitation is accepted, then `active` (takes a seat).',
  })
  status!: MemberStatus;

  @TimestampField({
    nullable: true,
    description: 'When the member was (last) invited; null for a workspace owner created active.',
  })
  invited_at!: string | null;

  @TimestampField({
    nullable: true,
    description: 'When the member accepted the invitation (became active), or null.',
  })
  joined_at!: string | null;
}

const INVITATION_EXAMPLE = {
  id: 'inv_01jd8x9a8b7c6d5e4f3g2h1j0k',
  email: 'grace@example.com',
  role: 'member',
  expires_at: '2026-11-29T10:15:00.000Z',
} as const;

/**
 * An open invitation, as the admin CLI's `invitation list` prints it (no REST route). Without
 * its token: only a hash of it is stored, the e-mailed link is the one place it exists.
 */
@ContractSchema({
  name: 'Invitation',
  description: 'An open invitation, as `invitation list` of the admin CLI prints it.',
  examples: [INVITATION_EXAMPLE],
})
export class Invitation {
  @IdField('inv', 'Id of the invitation.') id!: string;
  @TextField() email!: string;
  @EnumField(MEMBER_ROLES, ROLE) role!: MemberRole;
  @TimestampField({ description: 'When the link stops working (7 days after the invitation).' })
  expires_at!: string;
}

/** An invitation given a new link by `invitation renew`: the one time its token is printed. */
@ContractSchema({
  name: 'RenewedInvitation',
  description: 'An invitation with its new link, as `invitation renew` of the admin CLI prints it.',
  examples: [
    {
      ...INVITATION_EXAMPLE,
      token: 'q3JmZ0u8S3m2Vb7YkqK1cW1kqQ4rR5hT6nP0aXyZbCd',
      accept_url:
        'https://custodian.example.com/console/invitations/accept#token=q3JmZ0u8S3m2Vb7YkqK1cW1kqQ4rR5hT6nP0aXyZbCd',
    },
  ],
})
export class RenewedInvitation {
  @IdField('inv', 'Id of the invitation.') id!: string;
  @TextField() email!: string;
  @EnumField(MEMBER_ROLES, ROLE) role!: MemberRole;
  @TextField({ description: 'The credential of the new accept link (base64url); not stored.' })
  token!: string;
  @TimestampField({ description: 'When the new link stops working (7 days after the renewal).' })
  expires_at!: string;
  @TextField({
    description:
      'The console page that accepts it and signs the member in, with the token in its fragment ' +
      '(never sent to a server, so never in an access log); what the operator passes on.',
  })
  accept_url!: string;
}

/** A workspace member: a login, not a person record (spec 2.3). */
export type MemberView = Member;

/** An open invitation, as `invitation list` prints it (no token: it is not stored). */
export type InvitationView = Invitation;

/** An invitation with its new link, as `invitation renew` prints it. */
export type RenewedInvitationView = RenewedInvitation;
