import type {
  ActivityPage,
  AssetDetail,
  ConsoleEndpoint,
  CreatedConsoleKey,
  ErrorBody,
  MemberView,
  PersonDetail,
} from '@custodian/contracts';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

/**
 * Issue 14, the activity feed: changes made through the API, the console and the admin queue,
 * to records of all three apps, read back as one feed, newest first, as each role may see it.
 */
describe('console activity feed (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);
  afterAll(() => stack.stop());

  it('names who did what from where, across assets, people, members, keys and endpoints', async () => {
    const owner = await consoleOwner(stack, tenant.workspace.id, 'owner@activity.example');
    // The key is named by its name, or by its prefix when it has none.
    const keyName = tenant.key.name ?? tenant.key.prefix;
    const viaApi = await tenant.post<AssetDetail>('/assets', { name: 'Laptop', brand: 'Apple' });
    expect(viaApi.status).toBe(201);
    const person = await tenant.post<PersonDetail>('/people', { full_name: 'Ada Lovelace' });
    const checkedOut = await owner.patch<AssetDetail>(`/console/api/assets/${viaApi.body.id}`, {
      assigned_to_id: person.body.id,
    });
    expect(checkedOut.status).toBe(200);
    const key = await owner.post<CreatedConsoleKey>('/console/api/keys', {
      name: 'Zapier',
      scope: 'read',
    });
    const endpoint = await owner.post<ConsoleEndpoint>('/console/api/webhooks', {
      url: 'https://example.com/hooks',
      events: ['asset.created'],
    });
    expect([key.status, endpoint.status]).toEqual([201, 201]);

    const feed = await owner.get<ActivityPage>('/console/api/activity');
    expect(feed.status).toBe(200);
    const rows = feed.body.data.map((entry) => [
      entry.record_type,
      entry.action,
      entry.source,
      entry.actor.name,
    ]);
    expect(rows.slice(0, 5)).toEqual([
      ['endpoint', 'created', 'console', 'owner@activity.example'],
      ['key', 'created', 'console', 'owner@activity.example'],
      ['asset', 'checked_out', 'console', 'owner@activity.example'],
      ['person', 'created', 'api', keyName],
      ['asset', 'created', 'api', keyName],
    ]);
    expect(rows).toContainEqual(['member', 'created', 'cli', null]);
    const apiEntry = feed.body.data[4];
    expect(apiEntry?.actor).toEqual({
      type: 'key',
      id: tenant.key.id,
      name: keyName,
    });
    expect(apiEntry?.changes).toContainEqual({ field: 'brand', from: null, to: 'Apple' });

    // A record's history: the person's holds the check-out of the asset.
    const history = await owner.get<ActivityPage>(
      `/console/api/activity?record_id=${person.body.id}`,
    );
    expect(history.body.data.map((entry) => entry.action)).toEqual(['checked_out', 'created']);

    // Filters and pages.
    const fromApi = await owner.get<ActivityPage>('/console/api/activity?source=api');
    expect(fromApi.body.data.every((entry) => entry.source === 'api')).toBe(true);
    const first = await owner.get<ActivityPage>('/console/api/activity?limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next).toBe(first.body.data[1]?.id);
    const second = await owner.get<ActivityPage>(
      `/console/api/activity?limit=2&before=${first.body.next}`,
    );
    expect(second.body.data.map((entry) => entry.id)).toEqual(
      feed.body.data.slice(2, 4).map((entry) => entry.id),
    );

    const bad = await owner.get<ErrorBody>('/console/api/activity?limit=500');
    expect([bad.status, bad.body.error, bad.body.message]).toEqual([
      400,
      'Bad Request',
      'limit must be a whole number from 1 to 100',
    ]);
  });

  it('shows a member only the records their role may see', async () => {
    const other = await stack.tenant('pro', 'write');
    const owner = await consoleOwner(stack, other.workspace.id, 'owner@roles.example');
    await owner.post('/console/api/keys', { name: 'CI', scope: 'write' });
    await other.post('/assets', { name: 'Projector' });
    const member = await consoleMember(other, 'member', 'member@roles.example');

    const seen = await member.get<ActivityPage>('/console/api/activity');
    expect(seen.status).toBe(200);
    const types = new Set(seen.body.data.map((entry) => entry.record_type));
    expect(types.has('key')).toBe(false);
    expect(types.has('asset')).toBe(true);
    const keys = await member.get<ErrorBody>('/console/api/activity?record_type=key');
    expect([keys.status, keys.body.message]).toEqual([
      403,
      'Your role (member) may not see key activity',
    ]);
    // The member who joined is in the feed, as themselves, from the console.
    const joined = seen.body.data.find((entry) => entry.action === 'joined');
    expect(joined).toMatchObject({
      source: 'console',
      actor: { type: 'member', name: 'member@roles.example' },
    });
    // Another workspace's entries never show.
    expect(seen.body.data.every((entry) => entry.record_name !== 'Laptop')).toBe(true);
  });

  it('changes a role and resends an invitation from the console, both in the feed', async () => {
    const other = await stack.tenant('pro', 'write');
    const owner = await consoleOwner(stack, other.workspace.id, 'owner@invite.example');
    const member = await consoleMember(other, 'member', 'member@invite.example');
    const invited = await owner.post<MemberView>('/console/api/members', {
      email: 'later@invite.example',
      role: 'member',
    });
    const members = (await owner.get<MemberView[]>('/console/api/members')).body;
    const memberId = members.find((m) => m.email === 'member@invite.example')?.id ?? '';

    const promoted = await owner.patch<MemberView>(`/console/api/members/${memberId}`, {
      role: 'manager',
    });
    expect([promoted.status, promoted.body.role]).toEqual([200, 'manager']);
    const byMember = await member.patch<ErrorBody>(`/console/api/members/${memberId}`, {
      role: 'admin',
    });
    expect(byMember.status).toBe(403);
    const badRole = await owner.patch<ErrorBody>(`/console/api/members/${memberId}`, {
      role: 'king',
    });
    expect([badRole.status, badRole.body.message]).toEqual([
      400,
      'role must be one of owner, admin, manager, member',
    ]);

    const resent = await owner.post<MemberView>(
      `/console/api/members/${invited.body.id}/invitation`,
      {},
    );
    expect([resent.status, resent.body.status]).toEqual([200, 'invited']);
    const joinedAlready = await owner.post<ErrorBody>(
      `/console/api/members/${memberId}/invitation`,
      {},
    );
    expect([joinedAlready.status, joinedAlready.body.message]).toEqual([
      409,
      'member@invite.example has already joined',
    ]);

    const feed = await owner.get<ActivityPage>('/console/api/activity?record_type=member');
    expect(feed.body.data.slice(0, 2).map((entry) => [entry.action, entry.record_name])).toEqual([
      ['invitation_resent', 'later@invite.example'],
      ['role_changed', 'member@invite.example'],
    ]);
    expect(feed.body.data[1]?.changes).toEqual([{ field: 'role', from: 'member', to: 'manager' }]);
  });
});
