import type {
  ConsoleSession,
  ConsoleSessionListItem,
  CreatedConsoleKey,
  ErrorBody,
} from '@custodian/contracts';
import { eventually, freePort } from '@custodian/testing';
import { ConsoleClient } from './support/console-client';
import { consoleOwner } from './support/console-sign-in';
import { MailSink } from './support/mail-sink';
import { TestStack } from './support/stack';

type ListedSession = ConsoleSessionListItem;

const PASSWORD = 'correct horse battery staple';

/**
 * Issue 31, item 4: sessions a member controls. Before, a member could not see where they
 * were signed in, nor end a session but the one in front of them; a new password left every
 * other session open; and a session of any age could create keys and read secrets.
 */
describe('console sessions a member controls (e2e)', () => {
  const stack = new TestStack({ env: { RECENT_SIGN_IN_SECONDS: '1' } });
  const mail = new MailSink();
  let workspace: string;
  const email = 'owner@sessions.example';

  beforeAll(async () => {
    await mail.start();
    const port = await freePort();
    Object.assign(stack.env, {
      SMTP_URL: mail.url,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    await stack.start();
    workspace = (await stack.tenant('pro', 'write')).workspace.id;
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await mail.stop();
  });

  /** Another browser of the same member, signed in by password. */
  async function anotherBrowser(userAgent: string): Promise<ConsoleClient> {
    const client = new ConsoleClient(new URL(stack.baseUrl).origin, { 'user-agent': userAgent });
    await client.session();
    const signedIn = await client.post('/console/api/sign-in/password', {
      email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    await client.session();
    return client;
  }

  it('lists them, signs one out, and every other one out; a new password ends the others and mails', async () => {
    const laptop = await consoleOwner(stack, workspace, email);
    const phone = await anotherBrowser('Mozilla/5.0 (iPhone) Safari/604.1');
    const tablet = await anotherBrowser('Mozilla/5.0 (Linux; Android 14) Chrome/130.0');

    const listed = await laptop.get<ListedSession[]>('/console/api/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(3);
    expect(listed.body.filter((one) => one.current)).toHaveLength(1);
    expect(listed.body.map((one) => one.device)).toEqual(
      expect.arrayContaining(['Mozilla/5.0 (iPhone) Safari/604.1']),
    );
    expect(listed.body.every((one) => one.address === '127.0.0.1')).toBe(true);
    // The list names sessions by an id of their own, never the cookie.
    expect(JSON.stringify(listed.body)).not.toMatch(/custodian_session/);

    const phoneId = (await phone.get<ListedSession[]>('/console/api/sessions')).body.find(
      (one) => one.current,
    )!.id;
    expect((await laptop.request('DELETE', `/console/api/sessions/${phoneId}`)).status).toBe(204);
    expect((await phone.get('/console/api/keys')).status).toBe(401);
    expect((await laptop.request('DELETE', '/console/api/sessions/nope')).status).toBe(404);

    const others = await laptop.post<{ signed_out: number }>(
      '/console/api/sessions/sign-out-others',
    );
    expect(others.body).toEqual({ signed_out: 1 });
    expect((await tablet.get('/console/api/keys')).status).toBe(401);
    expect((await laptop.get('/console/api/keys')).status).toBe(200);

    // A new password: the other sessions end, this one stays, and the member is told.
    const other = await anotherBrowser('Mozilla/5.0 (Windows NT 10.0) Firefox/131.0');
    const before = mail.countTo(email);
    const changed = await laptop.put('/console/api/account/password', {
      password: 'a brand new long password',
      current_password: PASSWORD,
    });
    expect(changed.status).toBe(204);
    expect((await other.get('/console/api/keys')).status).toBe(401);
    expect((await laptop.get('/console/api/keys')).status).toBe(200);
    await eventually(() =>
      mail.countTo(email) > before ? Promise.resolve() : Promise.reject(new Error('no mail')),
    );
    await mail.latest(
      email,
      /password of [\s\S]* was set[\s\S]*Every other console session of this e-mail was signed out/,
    );
  });

  it('asks for the password again to create a key once the sign-in is not recent', async () => {
    const owner = await consoleOwner(stack, workspace, 'keys@sessions.example');
    const fresh = await owner.post<CreatedConsoleKey>('/console/api/keys', {
      name: 'fresh',
      scope: 'read',
    });
    expect(fresh.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_200));

    const stale = await owner.post<ErrorBody>('/console/api/keys', {
      name: 'stale',
      scope: 'read',
    });
    expect(stale.status).toBe(403);
    expect(stale.body.message).toMatch(
      /^Confirm your password: this hands out or changes a secret/,
    );
    const wrong = await owner.post<ErrorBody>(
      '/console/api/keys',
      { name: 'stale', scope: 'read' },
      { 'x-confirm-password': 'not the password' },
    );
    expect([wrong.status, wrong.body.message]).toEqual([
      403,
      'Confirm your password: that password is wrong',
    ]);
    const confirmed = await owner.post<CreatedConsoleKey>(
      '/console/api/keys',
      { name: 'stale', scope: 'read' },
      { 'x-confirm-password': PASSWORD },
    );
    expect(confirmed.status).toBe(201);
    // Confirmed is a sign-in again: the next one, at once, needs nothing more.
    const next = await owner.post('/console/api/keys', { name: 'next', scope: 'read' });
    expect(next.status).toBe(201);
    const session = await owner.session<ConsoleSession>();
    expect(session.body.signed_in).toBe(true);
  });
});
