import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  type ErrorBody,
  type InvitationView,
  type MemberView,
  type RenewedInvitationView,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { eventually, httpRequest } from '@custodian/testing';
import { createServer, type AddressInfo } from 'node:net';
import { Client } from 'pg';
import { SMTPServer } from 'smtp-server';
import { TestStack, Tenant } from './support/stack';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** `expect.stringMatching`, typed as the string it stands for. */
const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;
/** Recipients the test SMTP server refuses, to show a failed e-mail loses nothing. */
const REFUSED = /@refused\.example$/;

interface ReceivedMail {
  to: string[];
  raw: string;
  text: string;
}

/** The body of a received message, quoted-printable decoded (nodemailer wraps long lines). */
function decodeBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    return body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return body;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('members and invitations (e2e)', () => {
  const stack = new TestStack();
  const mails: ReceivedMail[] = [];
  let smtp: SMTPServer;
  let db: Client;
  let tenant: Tenant;
  let publicBaseUrl: string;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (REFUSED.test(address.address)) callback(new Error('mailbox unavailable'));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          mails.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            text: decodeBody(raw),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    // The gateway's port is fixed up front, so the link in the e-mail is the real one.
    const port = await freePort();
    publicBaseUrl = `http://127.0.0.1:${port}`;
    Object.assign(stack.env, {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      PORT: String(port),
      PUBLIC_BASE_URL: publicBaseUrl,
    });
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  }, 30_000);

  afterAll(async () => {
    await db?.end();
    await stack.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  async function invite(body: Record<string, unknown>, who: Tenant = tenant) {
    const response = await who.post<MemberView>('/members', body);
    expect(response.status).toBe(201);
    return response.body;
  }

  async function members(who: Tenant = tenant): Promise<MemberView[]> {
    const response = await who.get<MemberView[]>('/members');
    expect(response.status).toBe(200);
    return response.body;
  }

  async function outbox(workspaceId: string, event: string): Promise<unknown[]> {
    const { rows } = await db.query<{ data: unknown }>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = $2 ORDER BY id`,
      [workspaceId, event],
    );
    return rows.map((row) => row.data);
  }

  function mailTo(email: string): Promise<ReceivedMail> {
    return eventually(() => {
      const mail = mails.find((m) => m.to.includes(email));
      if (!mail) throw new Error(`no e-mail to ${email} yet`);
      return Promise.resolve(mail);
    });
  }

  /** The console's accept screen, the token in the fragment (it reaches no server log). */
  function acceptLink(mail: ReceivedMail): string {
    const match = /(http:\/\/\S+\/console\/invitations\/accept#token=[A-Za-z0-9_-]+)/.exec(
      mail.text,
    );
    if (!match) throw new Error(`no accept link in:\n${mail.text}`);
    return match[1]!;
  }

  function tokenOfLink(link: string): string {
    return new URLSearchParams(new URL(link).hash.slice(1)).get('token')!;
  }

  /** The tokens of the links e-mailed to `email`, once `count` have arrived. */
  function tokensMailedTo(email: string, count = 1): Promise<string[]> {
    return eventually(() => {
      const tokens = mails
        .filter((m) => m.to.includes(email))
        .map((m) => tokenOfLink(acceptLink(m)));
      if (tokens.length < count) throw new Error(`${tokens.length} e-mails to ${email} yet`);
      return Promise.resolve(tokens);
    });
  }

  /** The token of the (last) link e-mailed to `email`: the one place a token exists. */
  async function tokenMailedTo(email: string): Promise<string> {
    return (await tokensMailedTo(email)).at(-1)!;
  }

  async function invitations(workspace: string): Promise<InvitationView[]> {
    return stack.registerAdminCall(RegisterAdminPatterns.invitationList, { workspace });
  }

  /** A pro workspace created with an owner, its seat limit set, and a write key. */
  async function seatedTenant(seats: string): Promise<{ tenant: Tenant; owner: MemberView }> {
    const created = await stack.adminCall<WorkspaceView & { owner: MemberView }>(
      GatewayAdminPatterns.workspaceCreate,
      { name: 'Seated', plan: 'pro', owner_email: 'owner@seated.example' },
    );
    const workspace = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceLimits, {
      workspace: created.id,
      seats,
      rate_per_minute: '1000000',
    });
    const key = await stack.createKey(workspace.id, 'write');
    return { tenant: new Tenant(stack, workspace, key), owner: created.owner };
  }

  describe('invite and accept', () => {
    it('invites (201, invited, member.invited), e-mails the link, and the link activates', async () => {
      const member = await invite({ email: 'grace@example.com', name: 'Grace Hopper' });
      expect(member).toEqual({
        id: matching(/^usr_[0-9a-z]{26}$/),
        email: 'grace@example.com',
        name: 'Grace Hopper',
        role: 'member',
        status: 'invited',
        invited_at: matching(TIMESTAMP),
        joined_at: null,
      });
      expect(await members()).toContainEqual(member);
      expect(await outbox(tenant.workspace.id, 'member.invited')).toEqual([member]);

      const mail = await mailTo('grace@example.com');
      expect(mail.raw).toMatch(/^From: Custodian <no-reply@custodian\.local>\r?$/im);
      const link = acceptLink(mail);
      expect(link.startsWith(`${publicBaseUrl}/console/invitations/accept#token=`)).toBe(true);
      const [listed] = (await invitations(tenant.workspace.id)).filter(
        (i) => i.email === 'grace@example.com',
      );
      // Listed without its token: only a hash of it is stored.
      expect(listed).toEqual({
        id: matching(/^inv_/),
        email: 'grace@example.com',
        role: 'member',
        expires_at: matching(TIMESTAMP),
      });
      const token = tokenOfLink(link);
      const { rows: stored } = await db.query(`SELECT * FROM register.invitations`);
      expect(stored.length).toBeGreaterThan(0);
      expect(JSON.stringify(stored)).not.toContain(token);
      const days = (Date.parse(listed!.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);

      // Real HTTP, no API key: the token is all the invitee has. The mailed link opens the
      // console, which posts it; the public API's link still works: opening it only shows the
      // page (a mail scanner fetching it accepts nothing), whose button posts to the same URL.
      const apiLink = `${publicBaseUrl}/api/v1/invitations/accept?token=${token}`;
      const page = await fetch(apiLink);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const html = await page.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, '&');
      expect(action).toBe(new URL(apiLink).pathname + new URL(apiLink).search);
      expect((await members()).find((m) => m.id === member.id)?.status).toBe('invited');
      const response = await fetch(new URL(action!, apiLink), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const accepted = (await response.json()) as MemberView;
      expect(accepted).toEqual({
        ...member,
        status: 'active',
        joined_at: matching(TIMESTAMP),
      });
      expect(await members()).toContainEqual(accepted);
      expect(await invitations(tenant.workspace.id)).not.toContainEqual(listed);

      const again = await httpRequest<ErrorBody>(apiLink, { method: 'POST' });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('This invitation has already been accepted');
    });

    it('refuses an unknown or missing token', async () => {
      const unknown = await stack.request<ErrorBody>('/invitations/accept?token=nope', {
        method: 'POST',
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'Invitation not found; the link may be mistyped',
      });
      const missing = await stack.request<ErrorBody>('/invitations/accept', { method: 'POST' });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/\btoken\b/);
    });

    it('refuses an expired invitation, and the e-mail can then be invited again', async () => {
      const member = await invite({ email: 'late@example.com', role: 'manager' });
      const [listed] = (await invitations(tenant.workspace.id)).filter(
        (i) => i.email === 'late@example.com',
      );
      await db.query(
        `UPDATE register.invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`,
        [listed!.id],
      );
      const token = await tokenMailedTo('late@example.com');
      const expired = await stack.request<ErrorBody>(`/invitations/accept?token=${token}`, {
        method: 'POST',
      });
      expect(expired.status).toBe(409);
      expect(expired.body.message).toMatch(/^This invitation expired at .*; ask for a new one$/);
      expect(await invitations(tenant.workspace.id)).not.toContainEqual(listed);

      const again = await invite({ email: 'late@example.com' });
      expect(again).toMatchObject({ id: member.id, status: 'invited', role: 'member' });
      const [fresh] = (await invitations(tenant.workspace.id)).filter(
        (i) => i.email === 'late@example.com',
      );
      expect(fresh!.id).not.toBe(listed!.id);
      const [, second] = await tokensMailedTo('late@example.com', 2);
      expect(second).not.toBe(token);
    });

    it('takes the token in the body, where no log keeps it; one in both places must agree', async () => {
      const member = await invite({ email: 'body@example.com' });
      const token = await tokenMailedTo('body@example.com');
      const differ = await stack.request<ErrorBody>(`/invitations/accept?token=other`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(differ.status).toBe(400);
      expect(differ.body.message).toMatch(/^token is in both the body and the query string/);
      const wrong = await stack.request<ErrorBody>('/invitations/accept', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 5 }),
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/\btoken\b/);
      const accepted = await stack.request<MemberView>('/invitations/accept', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ id: member.id, status: 'active' });
    });

    it('keeps the invitation when the e-mail cannot be sent; a new link reaches the invitee', async () => {
      const member = await invite({ email: 'nobody@refused.example' });
      expect(member.status).toBe('invited');
      const listed = await eventually(async () => {
        const found = (await invitations(tenant.workspace.id)).find(
          (i) => i.email === 'nobody@refused.example',
        );
        expect(found).toBeDefined();
        return found!;
      });
      // The token was only in the lost e-mail: the operator renews the link and passes it on.
      const renewed = await stack.registerAdminCall<RenewedInvitationView>(
        RegisterAdminPatterns.invitationRenew,
        { id: listed.id },
      );
      expect(renewed).toMatchObject({ id: listed.id, email: 'nobody@refused.example' });
      const accepted = await stack.request<MemberView>(
        `/invitations/accept?token=${renewed.token}`,
        { method: 'POST' },
      );
      expect(accepted.status).toBe(200);
      expect(accepted.body.status).toBe('active');
    });
  });

  describe('invite validation and rules', () => {
    it.each<[string, unknown, RegExp]>([
      ['email missing', { name: 'X' }, /\bemail\b/],
      ['email not an address', { email: 'not-an-address' }, /^email must be an e-mail address$/],
      ['email a number', { email: 5 }, /\bemail\b/],
      ['role unknown', { email: 'r@example.com', role: 'boss' }, /^role must be one of/],
      ['name blank', { email: 'n@example.com', name: '  ' }, /^name must not be blank$/],
      ['unknown field', { email: 'u@example.com', team: 'x' }, /^unknown field team$/],
      ['body an array', [{ email: 'a@example.com' }], /\bbody\b/],
    ])('refuses %s with 400', async (_, body, message) => {
      const response = await tenant.post<ErrorBody>('/members', body);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
    });

    it('refuses inviting an owner with 403, writing nothing', async () => {
      const before = await members();
      const events = await outbox(tenant.workspace.id, 'member.invited');
      const response = await tenant.post<ErrorBody>('/members', {
        email: 'boss@example.com',
        role: 'owner',
      });
      expect(response.status).toBe(403);
      expect(response.body.message).toMatch(/owner/);
      expect(await members()).toEqual(before);
      expect(await outbox(tenant.workspace.id, 'member.invited')).toEqual(events);
    });

    it('refuses an e-mail already invited or a member with 409, whatever its case', async () => {
      await invite({ email: 'dup@example.com', role: 'admin' });
      const invited = await tenant.post<ErrorBody>('/members', { email: 'DUP@example.com' });
      expect(invited.status).toBe(409);
      expect(invited.body.message).toBe('DUP@example.com is already invited to this workspace');

      const { tenant: own } = await seatedTenant('5');
      const active = await own.post<ErrorBody>('/members', { email: 'Owner@Seated.example' });
      expect(active.status).toBe(409);
      expect(active.body.message).toBe(
        'Owner@Seated.example is already a member of this workspace',
      );
      expect(await members(own)).toHaveLength(1);
    });

    it('invites the same e-mail in two workspaces', async () => {
      const other = await stack.tenant('pro', 'write');
      await invite({ email: 'shared@example.com' });
      await invite({ email: 'shared@example.com' }, other);
    });

    it('lets exactly one of concurrent invites of one e-mail through', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, () => tenant.post('/members', { email: 'race@example.com' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    });
  });

  describe('PATCH /members/{userId}', () => {
    it('changes a role, and refuses making or changing an owner with 403', async () => {
      const { tenant: own, owner } = await seatedTenant('10');
      expect(owner).toMatchObject({
        email: 'owner@seated.example',
        role: 'owner',
        status: 'active',
        joined_at: matching(TIMESTAMP),
      });
      const member = await invite({ email: 'pat@example.com' }, own);

      const promoted = await own.patch<MemberView>(`/members/${member.id}`, { role: 'manager' });
      expect(promoted.status).toBe(200);
      expect(promoted.body).toEqual({ ...member, role: 'manager' });
      const admin = await own.patch<MemberView>(`/members/${member.id}`, { role: 'admin' });
      expect(admin.body.role).toBe('admin');

      const toOwner = await own.patch<ErrorBody>(`/members/${member.id}`, { role: 'owner' });
      expect(toOwner.status).toBe(403);
      expect(toOwner.body.message).toMatch(/owner/);
      for (const role of ['admin', 'member', 'owner']) {
        const demote = await own.patch<ErrorBody>(`/members/${owner.id}`, { role });
        expect(demote.status).toBe(403);
        expect(demote.body.message).toMatch(/owner's role cannot be changed/);
      }
      const listed = await members(own);
      expect(listed.map((m) => [m.email, m.role])).toEqual([
        ['owner@seated.example', 'owner'],
        ['pat@example.com', 'admin'],
      ]);
    });

    it('answers 404 alike for an unknown id and a member of another workspace', async () => {
      const other = await stack.tenant('pro', 'write');
      const foreign = await invite({ email: 'foreign@example.com' }, other);
      const unknown = await tenant.patch<ErrorBody>('/members/usr_nope', { role: 'member' });
      const theirs = await tenant.patch<ErrorBody>(`/members/${foreign.id}`, { role: 'member' });
      expect(unknown.status).toBe(404);
      expect(theirs.status).toBe(404);
      expect(unknown.body.message).toBe('Member usr_nope not found');
      expect(theirs.body.message).toBe(`Member ${foreign.id} not found`);
      expect((await members(other)).find((m) => m.id === foreign.id)?.role).toBe('member');
    });

    it('refuses a body without a valid role with 400', async () => {
      const member = await invite({ email: 'badrole@example.com' });
      for (const body of [{}, { role: 'king' }, { role: 'member', email: 'x@example.com' }]) {
        const response = await tenant.patch<ErrorBody>(`/members/${member.id}`, body);
        expect(response.status).toBe(400);
      }
    });
  });

  describe('scopes', () => {
    it('lets a read key list but not invite or change (403)', async () => {
      const member = await invite({ email: 'scoped@example.com' });
      const readKey = await stack.createKey(tenant.workspace.id, 'read');
      const reader = new Tenant(stack, tenant.workspace, readKey);
      expect((await reader.get<MemberView[]>('/members')).status).toBe(200);
      const post = await reader.post<ErrorBody>('/members', { email: 'r2@example.com' });
      expect(post.status).toBe(403);
      const patch = await reader.patch<ErrorBody>(`/members/${member.id}`, { role: 'admin' });
      expect(patch.status).toBe(403);
      expect((await members()).find((m) => m.id === member.id)?.role).toBe('member');
    });

    it('needs a key for the members routes', async () => {
      expect((await stack.request('/members')).status).toBe(401);
    });
  });

  describe('list', () => {
    it('is a bare array ordered by creation', async () => {
      const own = await stack.tenant('pro', 'write');
      expect(await members(own)).toEqual([]);
      const emails = ['c@example.com', 'a@example.com', 'b@example.com'];
      for (const email of emails) await invite({ email }, own);
      expect((await members(own)).map((m) => m.email)).toEqual(emails);
    });
  });

  describe('seats', () => {
    it('refuses acceptance with no seat left, keeping the invitation, until a seat is added', async () => {
      const { tenant: own } = await seatedTenant('1');
      const member = await invite({ email: 'seatless@example.com' }, own);
      const [listed] = await invitations(own.workspace.id);
      expect(listed?.email).toBe('seatless@example.com');

      const token = await tokenMailedTo('seatless@example.com');
      const refused = await stack.request<ErrorBody>(`/invitations/accept?token=${token}`, {
        method: 'POST',
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: 'Seat limit of 1 reached on the pro plan',
      });
      expect((await members(own)).find((m) => m.id === member.id)?.status).toBe('invited');
      expect(await invitations(own.workspace.id)).toEqual([listed]);

      await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: own.workspace.id,
        seats: '2',
      });
      const accepted = await stack.request<MemberView>(`/invitations/accept?token=${token}`, {
        method: 'POST',
      });
      expect(accepted.status).toBe(200);
      expect(accepted.body.status).toBe('active');
      expect(await outbox(own.workspace.id, 'plan.limit_reached')).toEqual([
        { workspace: { id: own.workspace.id }, plan: 'pro', limit: 'seats', value: 2 },
      ]);
    });

    it('gives the last seat to exactly one of concurrent acceptances', async () => {
      const { tenant: own } = await seatedTenant('2');
      const emails = ['one@example.com', 'two@example.com', 'three@example.com'];
      for (const email of emails) await invite({ email }, own);
      const tokens = await Promise.all(emails.map((email) => tokenMailedTo(email)));
      const results = await Promise.all(
        tokens.map((token) =>
          stack.request(`/invitations/accept?token=${token}`, { method: 'POST' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403]);
      expect((await members(own)).filter((m) => m.status === 'active')).toHaveLength(2);
    });
  });

  it('serves the admin patterns on the register admin queue only, not the API queue', async () => {
    const client = new RmqRpcClient({
      url: stack.env.RABBITMQ_URL!,
      queue: stack.env.REGISTER_QUEUE!,
      timeoutMs: 5_000,
      connectionName: 'custodian-test-api-queue',
      serviceName: 'register',
    });
    await client.connect();
    try {
      await expect(
        client.request(RegisterAdminPatterns.invitationList, { workspace: tenant.workspace.id }),
      ).rejects.toMatchObject({
        code: 'internal',
        message: `no handler for admin.invitation.list`,
      });
    } finally {
      await client.close();
    }
  });

  describe('admin CLI', () => {
    const admin = (...argv: string[]) => stack.cli(...argv);

    it('creates a workspace with an owner, lists and accepts invitations', async () => {
      const created = await admin(
        ...['workspace', 'create', '--name', 'CLI Co', '--plan', 'pro'],
        ...['--owner-email', 'boss@cli.example'],
      );
      expect(created.code).toBe(0);
      const workspace = JSON.parse(created.stdout) as WorkspaceView & { owner: MemberView };
      expect(workspace).toMatchObject({ name: 'CLI Co', plan: 'pro' });
      expect(workspace.owner).toMatchObject({
        email: 'boss@cli.example',
        role: 'owner',
        status: 'active',
      });
      const key = await stack.createKey(workspace.id, 'write');
      const own = new Tenant(stack, workspace, key);
      const member = await invite({ email: 'cli@example.com', role: 'manager' }, own);

      const listed = await admin('invitation', 'list', '--workspace', workspace.id);
      expect(listed.code).toBe(0);
      const open = JSON.parse(listed.stdout) as InvitationView[];
      expect(open).toEqual([
        {
          id: matching(/^inv_/),
          email: 'cli@example.com',
          role: 'manager',
          expires_at: matching(TIMESTAMP),
        },
      ]);
      // A new link, printed this once; the e-mailed one stops working.
      const renewedRun = await admin('invitation', 'renew', '--id', open[0]!.id);
      expect(renewedRun.code).toBe(0);
      const renewed = JSON.parse(renewedRun.stdout) as RenewedInvitationView;
      expect(renewed).toEqual({
        ...open[0],
        token: matching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: matching(TIMESTAMP),
        accept_url: matching(/\/console\/invitations\/accept#token=[A-Za-z0-9_-]{43}$/),
      });
      expect(renewed.accept_url.endsWith(renewed.token)).toBe(true);
      const [mailed] = await tokensMailedTo('cli@example.com');
      expect(renewed.token).not.toBe(mailed);
      const stale = await admin('invitation', 'accept', '--token', mailed!);
      expect(stale.code).not.toBe(0);

      const accepted = await admin('invitation', 'accept', '--token', renewed.token);
      expect(accepted.code).toBe(0);
      expect(JSON.parse(accepted.stdout)).toEqual({
        ...member,
        status: 'active',
        joined_at: matching(TIMESTAMP),
      });
      expect(
        JSON.parse((await admin('invitation', 'list', '--workspace', workspace.id)).stdout),
      ).toEqual([]);
      const roles = (await members(own)).map((m) => [m.email, m.role, m.status]);
      expect(roles).toEqual([
        ['boss@cli.example', 'owner', 'active'],
        ['cli@example.com', 'manager', 'active'],
      ]);
    }, 45_000);

    it('prints the error body for an unknown token or workspace', async () => {
      const token = await admin('invitation', 'accept', '--token', 'nope');
      expect(token.code).not.toBe(0);
      expect(JSON.parse(token.stderr)).toMatchObject({ statusCode: 404 });
      const workspace = await admin('invitation', 'list', '--workspace', 'wsp_nope');
      expect(workspace.code).not.toBe(0);
      expect(JSON.parse(workspace.stderr)).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'Workspace wsp_nope not found',
      });
    }, 20_000);

    it('refuses a bad owner e-mail without creating the workspace', async () => {
      const run = await admin(
        ...['workspace', 'create', '--name', 'Bad', '--plan', 'pro', '--owner-email', 'nope'],
      );
      expect(run.code).not.toBe(0);
      expect(JSON.parse(run.stderr)).toMatchObject({
        statusCode: 400,
        message: 'owner_email must be an e-mail address',
      });
      // A CLI process of its own: seconds on a loaded machine, as the tests above allow.
    }, 20_000);
  });
});
