import {
  GatewayAdminPatterns,
  type ConsoleKey,
  type ConsoleSession,
  type CreatedConsoleKey,
  type ErrorBody,
  type MemberView,
  type WorkspaceView,
} from '@custodian/contracts';
import { eventually, freePort, httpRequest } from '@custodian/testing';
import { ConsoleClient } from './support/console-client';
import { MailSink } from './support/mail-sink';
import { TestStack } from './support/stack';

const LINK = /\/console\/sign-in\/link#token=([A-Za-z0-9_-]+)/;
const INVITATION = /\/console\/invitations\/accept#token=([A-Za-z0-9_-]+)/;

describe('console sign-in, sessions, roles and API keys (e2e)', () => {
  const stack = new TestStack({
    env: {
      SIGN_IN_FAILURES_PER_ACCOUNT: '3',
      SIGN_IN_LINKS_PER_ACCOUNT: '50',
      USAGE_FLUSH_INTERVAL_MS: '50',
    },
  });
  const mail = new MailSink();
  let base: string;
  let acme: WorkspaceView;
  const owner = 'ada@acme.example';

  beforeAll(async () => {
    await mail.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    Object.assign(stack.env, { SMTP_URL: mail.url, PORT: String(port), PUBLIC_BASE_URL: base });
    await stack.start();
    acme = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Acme',
      plan: 'pro',
      owner_email: owner,
    });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await mail.stop();
  });

  /** Asks for a sign-in link for `email` and returns the token of the e-mail it sends. */
  async function linkToken(client: ConsoleClient, email: string): Promise<string> {
    const before = mail.countTo(email);
    expect((await client.post('/console/api/sign-in/link', { email })).status).toBe(202);
    await eventually(() =>
      mail.countTo(email) > before ? Promise.resolve() : Promise.reject(new Error('no mail')),
    );
    return (await mail.latest(email, LINK))[1]!;
  }

  /** Signs `email` in through the e-mailed link, as the console does. */
  async function signedIn(email: string): Promise<ConsoleClient> {
    const client = new ConsoleClient(base);
    await client.session();
    const token = await linkToken(client, email);
    const signIn = await client.post<ConsoleSession>('/console/api/sign-in/token', { token });
    expect(signIn.status).toBe(200);
    await client.session();
    return client;
  }

  it('answers a signed-out session with a CSRF token, and refuses a change without it', async () => {
    const client = new ConsoleClient(base);
    const session = await client.session<ConsoleSession>();
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ signed_in: false, workspace: null, permissions: [] });
    expect(session.body.csrf_token).toEqual(expect.any(String));

    const forged = await client.post<ErrorBody>(
      '/console/api/sign-in/link',
      { email: owner },
      { 'x-csrf-token': 'forged' },
    );
    expect(forged.status).toBe(403);
    expect(forged.body.message).toContain('x-csrf-token');
  });

  it.each([
    '/console/%61pi/sign-in/link',
    '/console/api/sign-in/%6Cink',
    '/console/%61%70%69/sign-in/link',
  ])(
    'refuses a change without the token however its path is percent-encoded (%s)',
    async (path) => {
      const client = new ConsoleClient(base);
      await client.session();
      // The router decodes the path to /console/api/sign-in/link: the check decides on that.
      const forged = await client.post<ErrorBody>(
        path,
        { email: owner },
        { 'x-csrf-token': 'forged' },
      );
      expect(forged.status).toBe(403);
      expect(forged.body.message).toContain('x-csrf-token');
    },
  );

  it('signs a member in by a one-time link, which works once', async () => {
    const client = new ConsoleClient(base);
    await client.session();
    // E-mail addresses are compared without case; the link goes to the member's address.
    const before = mail.countTo(owner);
    const asked = await client.post('/console/api/sign-in/link', { email: owner.toUpperCase() });
    expect(asked.status).toBe(202);
    await eventually(() =>
      mail.countTo(owner) > before ? Promise.resolve() : Promise.reject(new Error('no mail')),
    );
    const [link, token] = await mail.latest(owner, LINK);
    expect(link).toContain('#token=');

    const session = await client.post<ConsoleSession>('/console/api/sign-in/token', { token });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      signed_in: true,
      email: owner,
      workspace: { id: acme.id, name: 'Acme', plan: 'pro' },
      member: { role: 'owner' },
    });
    expect(session.body.permissions).toContain('keys.manage');
    const cookie = client.cookie('custodian_session');
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const again = await new ConsoleClient(base).session().then(async () => {
      const other = new ConsoleClient(base);
      await other.session();
      return other.post<ErrorBody>('/console/api/sign-in/token', { token });
    });
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/invalid, used or expired/);
  });

  it('gives a non-member the same answer and sends nothing', async () => {
    const client = new ConsoleClient(base);
    await client.session();
    const stranger = await client.post<{ message: string }>('/console/api/sign-in/link', {
      email: 'nobody@acme.example',
    });
    const member = await client.post<{ message: string }>('/console/api/sign-in/link', {
      email: owner,
    });
    expect(stranger.status).toBe(202);
    expect(stranger.body.message.replace('nobody@acme.example', owner)).toBe(member.body.message);
    await mail.latest(owner, LINK);
    expect(mail.countTo('nobody@acme.example')).toBe(0);
  });

  it('creates a key shown once, which calls the API, and revokes it for the next request', async () => {
    const client = await signedIn(owner);
    const created = await client.post<CreatedConsoleKey>('/console/api/keys', {
      name: 'CI pipeline',
      scope: 'read',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'CI pipeline', scope: 'read', created_by: owner });
    const key = created.body.key;
    expect(key.startsWith(created.body.prefix)).toBe(true);

    const ping = await httpRequest(`${base}/api/v1/ping`, { headers: { 'x-api-key': key } });
    expect(ping.status).toBe(200);
    expect(
      (await httpRequest(`${base}/api/v1/assets`, { headers: { 'x-api-key': key } })).status,
    ).toBe(200);
    const used = await eventually(async () => {
      const list = await client.get<ConsoleKey[]>('/console/api/keys');
      const row = list.body.find((k) => k.id === created.body.id);
      if (!row?.last_used_at) throw new Error('not used yet');
      return row;
    });
    expect(used).not.toHaveProperty('key');

    const revoked = await client.delete<ConsoleKey>(`/console/api/keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const refused = await httpRequest(`${base}/api/v1/ping`, { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(401);
  });

  it('never lets an API key open the console, nor a session the API', async () => {
    const client = await signedIn(owner);
    const key = (
      await client.post<CreatedConsoleKey>('/console/api/keys', { name: 'k', scope: 'write' })
    ).body.key;
    const withKey = await httpRequest<ErrorBody>(`${base}/console/api/keys`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withKey.status).toBe(401);
    const withCookie = await httpRequest<ErrorBody>(`${base}/api/v1/ping`, {
      headers: { cookie: `custodian_session=${client.cookie('custodian_session')}` },
    });
    expect(withCookie.status).toBe(401);
  });

  it('refuses bad input with the field named, and a foreign key id as not found', async () => {
    const client = await signedIn(owner);
    const bad = await client.post<ErrorBody>('/console/api/keys', { name: '', scope: 'admin' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/name|scope/);
    const unknownField = await client.post<ErrorBody>('/console/api/keys', {
      name: 'x',
      scope: 'read',
      workspace: 'wsp_other',
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toContain('workspace');

    const other = await stack.tenant('pro', 'write');
    const foreign = await client.delete<ErrorBody>(`/console/api/keys/${other.key.id}`);
    expect(foreign.status).toBe(404);
    expect((await other.get('/ping')).status).toBe(200);
    expect((await client.get<ErrorBody>('/console/api/nothing-here')).status).toBe(404);
  });

  it('signs in by password, limits failures per account, and signs out', async () => {
    const client = await signedIn(owner);
    const short = await client.put<ErrorBody>('/console/api/account/password', {
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('password');
    expect(
      (await client.put('/console/api/account/password', { password: 'correct horse battery' }))
        .status,
    ).toBe(204);
    expect((await client.post('/console/api/sign-out')).status).toBe(204);
    expect((await client.session<ConsoleSession>()).body.signed_in).toBe(false);
    expect((await client.get('/console/api/keys')).status).toBe(401);

    const wrong = await client.post<ErrorBody>('/console/api/sign-in/password', {
      email: owner,
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    const right = await client.post<ConsoleSession>('/console/api/sign-in/password', {
      email: owner,
      password: 'correct horse battery',
    });
    expect(right.status).toBe(200);
    expect(right.body.member?.role).toBe('owner');

    // SIGN_IN_FAILURES_PER_ACCOUNT is 3 in this stack.
    const attacker = new ConsoleClient(base);
    await attacker.session();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (
          await attacker.post('/console/api/sign-in/password', {
            email: owner,
            password: `guess ${i}`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const locked = await attacker.post('/console/api/sign-in/password', {
      email: owner,
      password: 'correct horse battery',
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('signs an invited member in on acceptance, and a demotion counts on the next request', async () => {
    const ownerClient = await signedIn(owner);
    const key = (
      await ownerClient.post<CreatedConsoleKey>('/console/api/keys', {
        name: 'invites',
        scope: 'write',
      })
    ).body.key;
    const invited = await httpRequest<MemberView>(`${base}/api/v1/members`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: { email: 'grace@acme.example', role: 'manager' },
    });
    expect(invited.status).toBe(201);
    const [, token] = await mail.latest('grace@acme.example', INVITATION);

    const grace = new ConsoleClient(base);
    await grace.session();
    const accepted = await grace.post<ConsoleSession>('/console/api/invitations/accept', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      signed_in: true,
      workspace: { id: acme.id },
      member: { role: 'manager' },
    });
    await grace.session();
    expect((await grace.get('/console/api/keys')).status).toBe(200);
    const refused = await grace.post<ErrorBody>('/console/api/keys', { name: 'x', scope: 'read' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('Your role (manager)');

    const demoted = await httpRequest(`${base}/api/v1/members/${invited.body.id}`, {
      method: 'PATCH',
      headers: { 'x-api-key': key },
      body: { role: 'member' },
    });
    expect(demoted.status).toBe(200);
    const now = await grace.get<ErrorBody>('/console/api/keys');
    expect(now.status).toBe(403);
    expect(now.body.message).toContain('Your role (member)');
  });

  it('lets a member of several workspaces pick one, and only theirs', async () => {
    const second = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Globex',
      plan: 'pro',
      owner_email: owner,
    });
    const client = new ConsoleClient(base);
    await client.session();
    const token = await linkToken(client, owner);
    const session = await client.post<ConsoleSession>('/console/api/sign-in/token', { token });
    expect(session.body.workspace).toBeNull();
    expect(session.body.memberships.map((m) => m.workspace_name).sort()).toEqual([
      'Acme',
      'Globex',
    ]);
    await client.session();
    expect((await client.get<ErrorBody>('/console/api/keys')).status).toBe(403);

    const picked = await client.post<ConsoleSession>('/console/api/session/workspace', {
      workspace_id: second.id,
    });
    expect(picked.status).toBe(200);
    expect(picked.body.workspace?.name).toBe('Globex');
    const other = await stack.createWorkspace('pro', 'Initech');
    const foreign = await client.post<ErrorBody>('/console/api/session/workspace', {
      workspace_id: other.id,
    });
    expect(foreign.status).toBe(404);
  });

  it('keeps a session an invitation opened to its workspace: no switching, no password, until a sign-in', async () => {
    const umbrella = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Umbrella',
      plan: 'pro',
      owner_email: 'uma@umbrella.example',
    });
    const wayne = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Wayne',
      plan: 'pro',
      owner_email: 'bruce@wayne.example',
    });
    // Wayne's owner invites Uma, and has seen the token (the admin CLI lists it): accepting it
    // himself, he must not reach Uma's own workspace, nor set her password.
    const bruce = await signedIn('bruce@wayne.example');
    expect(
      (await bruce.post('/console/api/members', { email: 'uma@umbrella.example', role: 'member' }))
        .status,
    ).toBe(201);
    const [, token] = await mail.latest('uma@umbrella.example', INVITATION);
    const holder = new ConsoleClient(base);
    await holder.session();
    const accepted = await holder.post<ConsoleSession>('/console/api/invitations/accept', {
      token,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.workspace?.id).toBe(wayne.id);
    expect(accepted.body.memberships.map((m) => m.workspace_id)).toEqual([wayne.id]);
    await holder.session();
    expect(
      (await holder.session<ConsoleSession>()).body.memberships.map((m) => m.workspace_id),
    ).toEqual([wayne.id]);

    const switched = await holder.post<ErrorBody>('/console/api/session/workspace', {
      workspace_id: umbrella.id,
    });
    expect(switched.status).toBe(403);
    expect(switched.body.message).toContain('opened by an invitation');
    const password = await holder.request<ErrorBody>('PUT', '/console/api/account/password', {
      password: 'a long enough password',
    });
    expect(password.status).toBe(403);
    expect(password.body.message).toContain('set a password');
    // Still in Wayne, as it was.
    expect((await holder.session<ConsoleSession>()).body.workspace?.id).toBe(wayne.id);

    // Uma's own sign-in (the e-mailed link) reaches both.
    const uma = new ConsoleClient(base);
    await uma.session();
    const signIn = await uma.post<ConsoleSession>('/console/api/sign-in/token', {
      token: await linkToken(uma, 'uma@umbrella.example'),
    });
    expect(signIn.body.memberships.map((m) => m.workspace_id).sort()).toEqual(
      [umbrella.id, wayne.id].sort(),
    );
  });
});
