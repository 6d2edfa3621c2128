import {
  RegisterAdminPatterns,
  type ConsoleSession,
  type InvitationView,
  type MemberRole,
  type MemberView,
  type PasswordSetView,
  type RenewedInvitationView,
} from '@custodian/contracts';
import { ConsoleClient } from './console-client';
import type { Tenant, TestStack } from './stack';

const PASSWORD = 'correct horse battery staple';

/**
 * A console session of a new owner of `workspace` (made through the register's admin queue,
 * as the admin CLI's `owner create` does), signed in by password and in that workspace: for
 * tests that need a person's actions without walking the e-mailed link.
 */
export async function consoleOwner(
  stack: TestStack,
  workspace: string,
  email: string,
): Promise<ConsoleClient> {
  await stack.registerAdminCall<MemberView>(RegisterAdminPatterns.ownerCreate, {
    workspace,
    email,
  });
  await stack.registerAdminCall<PasswordSetView>(RegisterAdminPatterns.passwordSet, {
    email,
    password: PASSWORD,
  });
  const client = new ConsoleClient(new URL(stack.baseUrl).origin);
  await client.session();
  const signedIn = await client.post('/console/api/sign-in/password', {
    email,
    password: PASSWORD,
  });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${signedIn.text}`);
  await client.session();
  const picked = await client.post('/console/api/session/workspace', { workspace_id: workspace });
  if (picked.status !== 200) throw new Error(`workspace: ${picked.status} ${picked.text}`);
  const session = await client.session<ConsoleSession>();
  if (session.body.workspace?.id !== workspace) throw new Error('not in the workspace');
  return client;
}

/**
 * A console session of a new member of the tenant's workspace with `role`: invited through
 * the API with the tenant's key, the link renewed through the admin queue (the e-mail is not
 * read), and accepted in the console, which signs them in.
 */
export async function consoleMember(
  tenant: Tenant,
  role: Exclude<MemberRole, 'owner'>,
  email: string,
): Promise<ConsoleClient> {
  const invited = await tenant.post<MemberView>('/members', { email, role });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${invited.text}`);
  const stack = tenant.stack;
  const open = await stack.registerAdminCall<InvitationView[]>(
    RegisterAdminPatterns.invitationList,
    { workspace: tenant.workspace.id },
  );
  const invitation = open.find((candidate) => candidate.email === email);
  if (!invitation) throw new Error(`no open invitation for ${email}`);
  const renewed = await stack.registerAdminCall<RenewedInvitationView>(
    RegisterAdminPatterns.invitationRenew,
    { id: invitation.id },
  );
  const client = new ConsoleClient(new URL(stack.baseUrl).origin);
  await client.session();
  const accepted = await client.post('/console/api/invitations/accept', { token: renewed.token });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  await client.session();
  return client;
}
