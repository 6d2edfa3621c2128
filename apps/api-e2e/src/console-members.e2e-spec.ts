import type { ConsoleSession, ErrorBody, MemberView } from '@custodian/contracts';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

/**
 * Issue 14, members: removing one in the console follows the role hierarchy, frees the seat,
 * fires `member.removed`, and ends what the removed member's session may do at once.
 */
describe('console members: removal (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);
  afterAll(() => stack.stop());

  async function seatsUsed(): Promise<number> {
    const [row] = await stack.query<{ member_count: number }>(
      `SELECT member_count FROM register.workspace_counters WHERE workspace_id = $1`,
      [tenant.workspace.id],
    );
    return row!.member_count;
  }

  it('removes by the hierarchy, frees the seat, fires member.removed and ends the session', async () => {
    const owner = await consoleOwner(stack, tenant.workspace.id, 'owner@members.example');
    const admin = await consoleMember(tenant, 'admin', 'admin@members.example');
    const member = await consoleMember(tenant, 'member', 'member@members.example');
    const ids = async () =>
      new Map(
        (await owner.get<MemberView[]>('/console/api/members')).body.map((m) => [m.email, m.id]),
      );
    const byEmail = await ids();
    const ownerId = byEmail.get('owner@members.example')!;
    const memberId = byEmail.get('member@members.example')!;

    // Everyone sees the members; a member removes nobody; an admin not an owner.
    const seen = await member.get<MemberView[]>('/console/api/members');
    expect(seen.status).toBe(200);
    expect(seen.body.map((m) => m.email).sort()).toEqual([
      'admin@members.example',
      'member@members.example',
      'owner@members.example',
    ]);
    const byMember = await member.delete<ErrorBody>(`/console/api/members/${ownerId}`);
    expect([byMember.status, byMember.body.message]).toEqual([
      403,
      'Your role (member) cannot invite or remove members; ask an owner or admin',
    ]);
    const byAdmin = await admin.delete<ErrorBody>(`/console/api/members/${ownerId}`);
    expect([byAdmin.status, byAdmin.body.message]).toEqual([
      403,
      'An owner cannot be removed by an admin',
    ]);
    const self = await owner.delete<ErrorBody>(`/console/api/members/${ownerId}`);
    expect([self.status, self.body.message]).toEqual([
      409,
      'You cannot remove yourself; another owner or admin can remove you',
    ]);

    const seats = await seatsUsed();
    const removed = await owner.delete<MemberView>(`/console/api/members/${memberId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: memberId, status: 'active', role: 'member' });
    expect(await seatsUsed()).toBe(seats - 1);

    // Their very next request is refused, and the session no longer has the workspace.
    const after = await member.get<ErrorBody>('/console/api/assets');
    expect([after.status, after.body.message]).toEqual([
      403,
      'You are no longer a member of this workspace',
    ]);
    expect((await member.session<ConsoleSession>()).body.workspace).toBeNull();

    const viaApi = await tenant.get<MemberView[]>('/members');
    expect(viaApi.body.map((m) => m.id)).not.toContain(memberId);
    const events = await stack.query<{ data: MemberView }>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'member.removed'`,
      [tenant.workspace.id],
    );
    expect(events.map((row) => row.data)).toEqual([removed.body]);
    expect((await owner.delete(`/console/api/members/${memberId}`)).status).toBe(404);
  }, 30_000);

  it('invites as the API does: the same checks and event; a member may not invite', async () => {
    const owner = await consoleOwner(stack, tenant.workspace.id, 'inviter@members.example');
    const member = await consoleMember(tenant, 'member', 'plain@members.example');
    const refused = await member.post<ErrorBody>('/console/api/members', {
      email: 'x@members.example',
    });
    expect([refused.status, refused.body.message]).toEqual([
      403,
      'Your role (member) cannot invite or remove members; ask an owner or admin',
    ]);

    const invited = await owner.post<MemberView>('/console/api/members', {
      email: 'grace@members.example',
      role: 'manager',
      name: 'Grace',
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ role: 'manager', status: 'invited', name: 'Grace' });
    const again = await owner.post<ErrorBody>('/console/api/members', {
      email: 'GRACE@members.example',
    });
    const viaApi = await tenant.post<ErrorBody>('/members', { email: 'GRACE@members.example' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(viaApi.body);
    const owners = await owner.post<ErrorBody>('/console/api/members', {
      email: 'boss@members.example',
      role: 'owner',
    });
    expect(owners.status).toBe(403);
    const events = await stack.query<{ data: MemberView }>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'member.invited'
        AND data->>'id' = $2`,
      [tenant.workspace.id, invited.body.id],
    );
    expect(events.map((row) => row.data)).toEqual([invited.body]);
  }, 30_000);
});
