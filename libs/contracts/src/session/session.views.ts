import { IsArray } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IdField,
  ListField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { MEMBER_ROLES, type MemberRole } from '../members/member.constants';
import { PLAN_NAMES, type PlanName } from '../workspaces/plan.constants';
import { PLAN, WORKSPACE_ID } from '../workspaces/workspace.docs';
import { CONSOLE_PERMISSIONS, type ConsolePermission } from './session.permissions';

const ROLE = { description: 'Role in the workspace, highest first: ' + MEMBER_ROLES.join(', ') };

@ContractSchema({ name: 'ConsoleWorkspace', description: 'The workspace a session works in.' })
export class ConsoleWorkspace {
  @IdField('wsp', WORKSPACE_ID) id!: string;
  @TextField({ description: 'Name of the workspace.' }) name!: string;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
}

@ContractSchema({ name: 'ConsoleMember', description: 'The signed-in member in that workspace.' })
export class ConsoleMember {
  @IdField('usr', 'The member id.') id!: string;
  @EnumField(MEMBER_ROLES, ROLE) role!: MemberRole;
  @TextField({ nullable: true, description: 'Display name, or null.' }) name!: string | null;
}

@ContractSchema({ name: 'ConsoleMembership', description: 'A workspace the e-mail is active in.' })
export class ConsoleMembership {
  @IdField('wsp', WORKSPACE_ID) workspace_id!: string;
  @TextField({ description: 'Name of the workspace.' }) workspace_name!: string;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
  @EnumField(MEMBER_ROLES, ROLE) role!: MemberRole;
}

@ContractSchema({
  name: 'ConsoleSession',
  description:
    'Who is signed in, in which workspace, and what they may do there. `signed_in` is false ' +
    '(and the rest null or empty) without a session. `workspace` is null until one is picked ' +
    'among `memberships`.',
})
export class ConsoleSession {
  @Field({ type: 'boolean' }, [], { description: 'Whether a session is open.' })
  signed_in!: boolean;

  @TextField({
    description: 'Send it as the `x-csrf-token` header on every request that changes state.',
  })
  csrf_token!: string;

  @TextField({ nullable: true, description: 'The e-mail signed in with.' })
  email!: string | null;

  @NestedField(ConsoleWorkspace, { nullable: true }) workspace!: ConsoleWorkspace | null;
  @NestedField(ConsoleMember, { nullable: true }) member!: ConsoleMember | null;

  @Field({ type: 'array', items: { type: 'string', enum: [...CONSOLE_PERMISSIONS] } }, [IsArray()])
  permissions!: ConsolePermission[];

  @ListField(ConsoleMembership) memberships!: ConsoleMembership[];
}

@ContractSchema({ name: 'ConsoleMessage', description: 'A sentence for the person.' })
export class ConsoleMessage {
  @TextField() message!: string;
}

@ContractSchema({
  name: 'ConsoleSessionListItem',
  description: 'One of the signed-in e-mail’s console sessions, in any browser.',
})
export class ConsoleSessionListItem {
  @TextField({ description: 'The session’s id in this list (not its cookie).' }) id!: string;
  @Field({ type: 'boolean' }, [], { description: 'Whether it is the session of this request.' })
  current!: boolean;
  @TextField({ nullable: true, description: 'The browser’s User-Agent at sign-in, or null.' })
  device!: string | null;
  @TextField({ nullable: true, description: 'The client address at sign-in, or null.' })
  address!: string | null;
  @TimestampField({ description: 'When it was opened.' }) signed_in_at!: string;
  @TimestampField({ description: 'Its last request (to the minute).' }) last_seen_at!: string;
}

@ContractSchema({ name: 'SessionsEnded', description: 'How many sessions were signed out.' })
export class SessionsEnded {
  @Field({ type: 'integer', minimum: 0 }, [], { description: 'Sessions signed out.' })
  signed_out!: number;
}
