import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter, planCopyOf, storePlanFacts } from '@custodian/messaging';
import {
  DomainError,
  EmailInput,
  InviteMemberInput,
  PasswordSignInInput,
  SetPasswordInput,
  SignInLinkInput,
  SignInTokenInput,
  type MemberRole,
  type MemberView,
} from '@custodian/contracts';
import { PLAN_CATALOG } from '@custodian/plans';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadRegisterConfig } from '../config/register-config';
import { registerDataSource } from '../database/data-source';
import { Mailer, type MailMessage } from '../mail/mailer';
import { MembersService } from '../members/members.service';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { SignInLinkPruner } from './sign-in-link-pruner';
import { SignInService } from './sign-in.service';

/**
 * Console sign-in on a fresh, migrated database, with members made through MembersService as
 * in production. Messages pass the consumer's validation pipe (`received`); the mailer is the
 * real one in its log mode, its sends recorded; each workspace is in the register's copy of the
 * gateway's plan facts (seats for an invitation accepted), stored as its consumer stores them.
 */

const INVALID_LINK = {
  code: 'unauthenticated',
  message: 'This sign-in link is invalid, used or expired; ask for a new one',
};
const WRONG_PASSWORD = { code: 'unauthenticated', message: 'E-mail or password is incorrect' };
const NO_MEMBERSHIP = {
  code: 'unauthenticated',
  message:
    'This e-mail is not an active member of any workspace; ask a workspace admin to invite it',
};

let store: MigratedDatabase;
let db: DataSource;
let mailer: Mailer;
let members: MembersService;
let signIn: SignInService;
const mails: MailMessage[] = [];

beforeAll(async () => {
  Logger.overrideLogger(false); // the log-mode mailer prints every message
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  const config = loadRegisterConfig({ DATABASE_URL: store.database.url });
  mailer = new Mailer(config);
  const send = mailer.send.bind(mailer);
  jest.spyOn(mailer, 'send').mockImplementation((message) => {
    mails.push(message);
    return send(message);
  });
  members = new MembersService(
    db,
    new WriteTransactions(db),
    config,
    mailer,
    planCopyOf(db, { schema: 'register', reader: 'register' }),
    new OutboxWriter('register'),
    new ReadTransactions(db),
    new ActivityLog('register'),
  );
  signIn = new SignInService(db, config, mailer);
}, 30_000);

afterAll(async () => {
  await mailer?.onApplicationShutdown();
  await store?.close();
});

/** The calls of the admin queue, each through its contract class as the consumer gets it. */
const call = {
  link: async (body: ClientBody<SignInLinkInput>) =>
    signIn.sendLink(await received(SignInLinkInput, body)),
  redeem: async (body: ClientBody<SignInTokenInput>) =>
    signIn.redeem(await received(SignInTokenInput, body)),
  password: async (body: ClientBody<PasswordSignInInput>) =>
    signIn.signInWithPassword(await received(PasswordSignInInput, body)),
  setPassword: async (body: ClientBody<SetPasswordInput>) =>
    signIn.setPassword(await received(SetPasswordInput, body)),
  memberships: async (body: ClientBody<EmailInput>) =>
    signIn.memberships(await received(EmailInput, body)),
};

/** A new workspace; members join it invited, or active (invited, then the link accepted). */
function workspace() {
  const caller = testCaller();
  // Stored when a call first needs it, never left running when a test ends.
  let stored: Promise<boolean> | undefined;
  const known = () =>
    (stored ??= storePlanFacts(db.manager, 'register', {
      workspace_id: caller.workspaceId,
      plan: 'pro',
      api_access: true,
      limits: PLAN_CATALOG.pro.limits,
      as_of: new Date().toISOString(),
    }));
  return {
    id: caller.workspaceId,
    invite: async (email: string, role: MemberRole = 'member'): Promise<MemberView> => {
      await known();
      return members.invite(
        caller,
        await received(InviteMemberInput, { email, role, name: email }),
      );
    },
    join: async (email: string, role: MemberRole = 'member'): Promise<MemberView> => {
      await known();
      await members.invite(caller, await received(InviteMemberInput, { email, role }));
      return members.accept({ token: lastToken(email, '/console/invitations/accept') });
    },
    owner: (email: string) =>
      members.createOwner({ workspace: caller.workspaceId, email, name: 'Owner' }),
    promote: (id: string, role: MemberRole) => members.update(caller, id, { role }),
  };
}

/** The token of the last `path` link mailed to `email` (case as written). */
function lastToken(email: string, path = '/console/sign-in/link'): string {
  const mail = mails.filter((message) => message.to === email).at(-1);
  const pattern = new RegExp(`^http://127\\.0\\.0\\.1:3000${path}#token=([A-Za-z0-9_-]{43})$`, 'm');
  const token = mail && pattern.exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${path} link mailed to ${email}`);
  return token;
}

function mailsTo(email: string): MailMessage[] {
  return mails.filter((message) => message.to === email);
}

async function links(emailLower: string) {
  return db.query<Array<{ token_hash: Buffer; expires_at: Date; used_at: Date | null }>>(
    `SELECT token_hash, expires_at, used_at, created_at FROM register.sign_in_links
     WHERE email_lower = $1 ORDER BY created_at, id`,
    [emailLower],
  );
}

const sha256 = (token: string) => createHash('sha256').update(token).digest();

describe('sign-in links', () => {
  it('mails an active member a 15-minute console link, storing only its hash', async () => {
    const ws = workspace();
    const owner = await ws.owner('ada@example.com');
    const before = Date.now();
    expect(await call.link({ email: 'ada@example.com' })).toEqual({ sent: true });
    const mail = mailsTo('ada@example.com').at(-1)!;
    expect(mail.subject).toBe('Sign in to Custodian');
    const token = lastToken('ada@example.com');
    const [stored] = await links('ada@example.com');
    expect(stored!.token_hash.equals(sha256(token))).toBe(true);
    expect(JSON.stringify(await links('ada@example.com'))).not.toContain(token);
    const minutes = (stored!.expires_at.getTime() - before) / 60_000;
    expect(minutes).toBeGreaterThan(14.9);
    expect(minutes).toBeLessThanOrEqual(15.1);
    expect(mail.text).toContain(`until ${stored!.expires_at.toISOString()}`);

    expect(await call.redeem({ token })).toEqual({
      email: 'ada@example.com',
      memberships: [{ workspace_id: ws.id, member_id: owner.id, role: 'owner', name: 'Owner' }],
    });
  });

  it('sends nothing and stores nothing for an unknown or only invited e-mail', async () => {
    const ws = workspace();
    await ws.invite('invited@example.com');
    const sent = mails.length;
    expect(await call.link({ email: 'invited@example.com' })).toEqual({ sent: false });
    expect(await call.link({ email: 'stranger@example.com' })).toEqual({ sent: false });
    expect(mails.length).toBe(sent);
    expect(await links('invited@example.com')).toEqual([]);
    expect(await links('stranger@example.com')).toEqual([]);
  });

  it('finds the member whatever the case of the e-mail, and answers in lower case', async () => {
    const ws = workspace();
    const member = await ws.join('Grace.Hopper@Example.com', 'manager');
    expect(await call.link({ email: 'GRACE.HOPPER@example.COM' })).toEqual({ sent: true });
    expect((await links('grace.hopper@example.com')).length).toBe(1);
    const identity = await call.redeem({ token: lastToken('GRACE.HOPPER@example.COM') });
    expect(identity).toEqual({
      email: 'grace.hopper@example.com',
      memberships: [{ workspace_id: ws.id, member_id: member.id, role: 'manager', name: null }],
    });
  });

  it('signs in once: a second redeem, even a concurrent one, is refused', async () => {
    await workspace().owner('once@example.com');
    await call.link({ email: 'once@example.com' });
    const token = lastToken('once@example.com');
    expect((await call.redeem({ token })).email).toBe('once@example.com');
    expect(await domainRejection(call.redeem({ token }))).toMatchObject(INVALID_LINK);

    await call.link({ email: 'once@example.com' });
    const raced = lastToken('once@example.com');
    const results = await Promise.allSettled([1, 2, 3].map(() => call.redeem({ token: raced })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject(INVALID_LINK);
    }
  });

  it('refuses an expired, an unknown and a malformed token alike', async () => {
    await workspace().owner('late@example.com');
    await call.link({ email: 'late@example.com' });
    const token = lastToken('late@example.com');
    await db.query(
      `UPDATE register.sign_in_links SET expires_at = now() - interval '1 second'
       WHERE email_lower = 'late@example.com'`,
    );
    expect(await domainRejection(call.redeem({ token }))).toMatchObject(INVALID_LINK);
    const unknown = 'A'.repeat(43);
    for (const bad of [unknown, 'nope', '', `${token}=`, 'x'.repeat(5_000), `${'A'.repeat(42)}+`]) {
      expect(await domainRejection(call.redeem({ token: bad }))).toMatchObject(INVALID_LINK);
    }
    expect((await links('late@example.com'))[0]!.used_at).toBeNull();
  });

  it('refuses a link whose e-mail is no longer an active member', async () => {
    const ws = workspace();
    const member = await ws.join('gone@example.com');
    await call.link({ email: 'gone@example.com' });
    await db.query(`DELETE FROM register.members WHERE id = $1`, [member.id]);
    const rejection = await domainRejection(call.redeem({ token: lastToken('gone@example.com') }));
    expect(rejection).toMatchObject(NO_MEMBERSHIP);
  });

  it('keeps the 5 newest open links of an e-mail: a sixth invalidates the oldest', async () => {
    await workspace().owner('many@example.com');
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) {
      expect(await call.link({ email: 'many@example.com' })).toEqual({ sent: true });
      tokens.push(lastToken('many@example.com'));
    }
    expect(await links('many@example.com')).toHaveLength(5);
    expect(await domainRejection(call.redeem({ token: tokens[0]! }))).toMatchObject(INVALID_LINK);
    expect((await call.redeem({ token: tokens[5]! })).email).toBe('many@example.com');
    expect((await call.redeem({ token: tokens[1]! })).email).toBe('many@example.com');
  });

  it('are pruned once expired, used or not', async () => {
    await workspace().owner('prune@example.com');
    for (let i = 0; i < 3; i++) await call.link({ email: 'prune@example.com' });
    await call.redeem({ token: lastToken('prune@example.com') });
    await db.query(
      `UPDATE register.sign_in_links SET expires_at = now() - interval '1 second'
       WHERE id IN (SELECT id FROM register.sign_in_links WHERE email_lower = 'prune@example.com'
                    ORDER BY created_at DESC LIMIT 2)`,
    );
    await new SignInLinkPruner(db).prune();
    const left = await links('prune@example.com');
    expect(left).toHaveLength(1);
    expect(left[0]!.expires_at.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('passwords', () => {
  it('sets a first password without a current one, then signs in with it (any case of e-mail)', async () => {
    const ws = workspace();
    const owner = await ws.owner('Pat@example.com');
    const set = await call.setPassword({ email: 'pat@example.com', password: 'a long passphrase' });
    expect(Date.now() - Date.parse(set.updated_at)).toBeLessThan(10_000);
    const [row] = await db.query<Array<{ password_hash: string }>>(
      `SELECT password_hash FROM register.logins WHERE email_lower = 'pat@example.com'`,
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain('a long passphrase');
    expect(
      await call.password({ email: 'PAT@Example.com', password: 'a long passphrase' }),
    ).toEqual({
      email: 'pat@example.com',
      memberships: [{ workspace_id: ws.id, member_id: owner.id, role: 'owner', name: 'Owner' }],
    });
  });

  it('answers a wrong password, an unknown e-mail and a member without one the same', async () => {
    await workspace().owner('has@example.com');
    await workspace().owner('none@example.com');
    await call.setPassword({ email: 'has@example.com', password: 'the right password' });
    for (const attempt of [
      { email: 'has@example.com', password: 'the wrong password' },
      { email: 'has@example.com', password: 'THE RIGHT PASSWORD' },
      { email: 'nobody@example.com', password: 'the right password' },
      { email: 'none@example.com', password: 'the right password' },
    ]) {
      expect(await domainRejection(call.password(attempt))).toMatchObject(WRONG_PASSWORD);
    }
  });

  it('needs the current password to change one, and names the field that is wrong', async () => {
    await workspace().owner('change@example.com');
    await call.setPassword({ email: 'change@example.com', password: 'first passphrase' });
    const missing = await domainRejection(
      call.setPassword({ email: 'change@example.com', password: 'second passphrase' }),
    );
    expect(missing).toMatchObject({
      code: 'invalid_input',
      message: 'current_password is required to change an existing password',
    });
    const wrong = await domainRejection(
      call.setPassword({
        email: 'change@example.com',
        password: 'second passphrase',
        current_password: 'not the first one',
      }),
    );
    expect(wrong).toMatchObject({
      code: 'unauthenticated',
      message: 'current_password is incorrect',
    });
    const signIn = (password: string) => call.password({ email: 'change@example.com', password });
    expect((await signIn('first passphrase')).email).toBe('change@example.com');

    await call.setPassword({
      email: 'change@example.com',
      password: 'second passphrase',
      current_password: 'first passphrase',
    });
    expect((await signIn('second passphrase')).email).toBe('change@example.com');
    expect(await domainRejection(signIn('first passphrase'))).toMatchObject(WRONG_PASSWORD);
  });

  it('lets two concurrent first passwords of one e-mail set one; the other must give it', async () => {
    await workspace().owner('twice@example.com');
    const results = await Promise.allSettled(
      ['passphrase one!', 'passphrase two!'].map((password) =>
        call.setPassword({ email: 'twice@example.com', password }),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({
      reason: { code: 'invalid_input' },
    });
  });

  it('refuses a password out of 12..256 characters naming password, and a non-member', async () => {
    await workspace().owner('short@example.com');
    for (const password of ['eleven char', 'x'.repeat(257)]) {
      const refused = await domainRejection(
        call.setPassword({ email: 'short@example.com', password }),
      );
      expect(refused).toMatchObject({
        code: 'invalid_input',
        message: 'password must be between 12 and 256 characters',
      });
    }
    // Twelve code points, though more UTF-16 units: accepted.
    await call.setPassword({ email: 'short@example.com', password: '🔑'.repeat(12) });
    expect(
      await domainRejection(
        call.setPassword({ email: 'outsider@example.com', password: 'long enough pass' }),
      ),
    ).toMatchObject(NO_MEMBERSHIP);
    const [count] = await db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM register.logins WHERE email_lower = 'outsider@example.com'`,
    );
    expect(count!.n).toBe(0);
  });

  it('keeps the hash out of the error of a failed write (the unhandled-error log prints it)', async () => {
    await workspace().owner('broken@example.com');
    await db.query(
      `ALTER TABLE register.logins ADD CONSTRAINT t_broken
       CHECK (email_lower <> 'broken@example.com') NOT VALID`,
    );
    try {
      const error = await call
        .setPassword({ email: 'broken@example.com', password: 'a fine passphrase' })
        .then(
          () => null,
          (thrown: unknown) => thrown as Error & { parameters?: unknown },
        );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DomainError);
      expect(error!.message).toMatch(/t_broken/);
      expect(error!.parameters).toBeUndefined();
      expect(JSON.stringify({ ...error })).not.toMatch(/argon2|fine passphrase/);
    } finally {
      await db.query(`ALTER TABLE register.logins DROP CONSTRAINT t_broken`);
    }
  });

  it('refuses a correct password of an e-mail no longer a member', async () => {
    const ws = workspace();
    const member = await ws.join('left@example.com');
    await call.setPassword({ email: 'left@example.com', password: 'still my password' });
    await db.query(`DELETE FROM register.members WHERE id = $1`, [member.id]);
    expect(
      await domainRejection(
        call.password({ email: 'left@example.com', password: 'still my password' }),
      ),
    ).toMatchObject(NO_MEMBERSHIP);
  });
});

describe('memberships', () => {
  it('lists the active memberships of an e-mail across workspaces, oldest joined first', async () => {
    const early = workspace();
    const late = workspace();
    const elsewhere = workspace();
    // Invited first in `early`, but joins `late` (as its owner) before accepting there.
    await early.invite('multi@example.com', 'admin');
    const owner = await late.owner('Multi@example.com');
    const admin = await members.accept({
      token: lastToken('multi@example.com', '/console/invitations/accept'),
    });
    await elsewhere.invite('MULTI@example.com');
    expect(await call.memberships({ email: 'multi@EXAMPLE.com' })).toEqual({
      email: 'multi@example.com',
      memberships: [
        { workspace_id: late.id, member_id: owner.id, role: 'owner', name: 'Owner' },
        { workspace_id: early.id, member_id: admin.id, role: 'admin', name: 'multi@example.com' },
      ],
    });
    expect(await call.memberships({ email: 'nobody@example.com' })).toEqual({
      email: 'nobody@example.com',
      memberships: [],
    });
  });

  it('refuses an e-mail that is not an address, naming the field', async () => {
    const refused = await domainRejection(call.memberships({ email: 'not an address' }));
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      code: 'invalid_input',
      message: 'email must be an e-mail address',
    });
  });
});

describe('one member (memberGet)', () => {
  it('reads the member as it is now: its new role, its status; not_found once removed or elsewhere', async () => {
    const ws = workspace();
    const member = await ws.join('role@example.com', 'member');
    await ws.promote(member.id, 'manager');
    expect(await members.get({ workspace: ws.id, id: member.id })).toEqual({
      ...member,
      role: 'manager',
    });
    const invited = await ws.invite('pending@example.com');
    expect(await members.get({ workspace: ws.id, id: invited.id })).toMatchObject({
      status: 'invited',
    });
    expect(
      await domainRejection(members.get({ workspace: workspace().id, id: member.id })),
    ).toMatchObject({ code: 'not_found', message: `Member ${member.id} not found` });
    await db.query(`DELETE FROM register.members WHERE id = $1`, [member.id]);
    expect(await domainRejection(members.get({ workspace: ws.id, id: member.id }))).toMatchObject({
      code: 'not_found',
    });
  });
});
