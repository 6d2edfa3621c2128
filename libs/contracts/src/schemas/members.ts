import { Type } from '@sinclair/typebox';
import { MEMBER_ROLES, MEMBER_STATUSES } from '../members';
import { Nullable, PrefixedId, StringEnum, Timestamp } from './common';

export const MemberRoleSchema = StringEnum(MEMBER_ROLES, {
  description: 'Role in the workspace, highest first: ' + MEMBER_ROLES.join(', ') + '.',
});

const memberExample = {
  id: 'usr_01jd8x9z8y7x6w5v4t3s2r1q0p',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  role: 'member',
  status: 'invited',
  invited_at: '2026-11-22T10:15:00.000Z',
  joined_at: null,
};

/** A workspace member: a login, not a person record (spec 2.3). */
export const MemberSchema = Type.Object(
  {
    id: PrefixedId(
      'usr',
      'The user id (the `{userId}` of `PATCH /members/{userId}`): `usr_` + a ULID.',
    ),
    email: Type.String({ description: 'E-mail address, as written when invited.' }),
    name: Nullable(Type.String(), { description: 'Display name, or null when not given.' }),
    role: MemberRoleSchema,
    status: StringEnum(MEMBER_STATUSES, {
      description: '`invited` until the invitation is accepted, then `active` (takes a seat).',
    }),
    invited_at: Nullable(Timestamp(), {
      description: 'When the member was (last) invited; null for a workspace owner created active.',
    }),
    joined_at: Nullable(Timestamp(), {
      description: 'When the member accepted the invitation (became active), or null.',
    }),
  },
  {
    additionalProperties: false,
    title: 'Member',
    description:
      'A workspace member (a login, not a person record). The body of `POST /members` (201, ' +
      'the invited member), `PATCH /members/{userId}` (200) and ' +
      '`POST /invitations/accept` (200, the member now active); the items of `GET /members`; ' +
      'the `data` of `member.invited`.',
    examples: [memberExample],
  },
);

export const MemberListSchema = Type.Array(MemberSchema, {
  title: 'MemberList',
  description: 'The body of `GET /members`: every invited and active member, oldest first.',
  examples: [[memberExample]],
});

/** An open invitation, as the admin CLI's `invitation list` prints it (no REST route). */
export const InvitationSchema = Type.Object(
  {
    id: PrefixedId('inv', 'Id of the invitation.'),
    email: Type.String(),
    role: MemberRoleSchema,
    token: Type.String({ description: 'The credential of the accept link (base64url).' }),
    expires_at: Timestamp('When the link stops working (7 days after the invitation).'),
  },
  {
    additionalProperties: false,
    title: 'Invitation',
    description: 'An open invitation, as `invitation list` of the admin CLI prints it.',
    examples: [
      {
        id: 'inv_01jd8x9a8b7c6d5e4f3g2h1j0k',
        email: 'grace@example.com',
        role: 'member',
        token: 'q3JmZ0u8S3m2Vb7YkqK1cW1kqQ4rR5hT6nP0aXyZbCd',
        expires_at: '2026-11-29T10:15:00.000Z',
      },
    ],
  },
);

export const MEMBER_EXAMPLE = memberExample;
