import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter, planCopyOf, storePlanFacts } from '@custodian/messaging';
import {
  type CallerContext,
  InviteMemberInput,
  type MemberView,
  UpdateMemberInput,
} from '@custodian/contracts';
import { PLAN_CATALOG } from '@custodian/plans';
import {
  createMigratedDatabase,
  createTestDatabase,
  domainRejection,
  received,
  type ClientBody,
  testCaller,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadRegisterConfig } from '../config/register-config';
import { registerDataSource } from '../database/data-source';
import { Mailer, type MailMessage } from '../mail/mailer';
import { migrateRegister } from '../migrate';
import { MembersService } from './members.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';

/**
 * Members and invitations on a fresh, migrated database. The mailer is the real one in its log
 * mode (no SMTP_URL); the gateway's plan facts are written to the register's copy as its
 * consumer stores them ({@link knownWorkspace}).
 */

/**
 * A workspace in a database's copy of the gateway's plan facts (ADR 0019), as the plan-facts
 * consumer stores them: on Pro, with this many seats.
 */
function knownWorkspace(source: DataSource, id: string, seats: number | null): Promise<boolean> {
  return storePlanFacts(source.manager, 'register', {
    workspace_id: id,
    plan: 'pro',
    api_access: true,
    limits: { ...PLAN_CATALOG.pro.limits, seats },
    as_of: new Date().toISOString(),
  });
}

/** The register's copy of plan facts on a database; a workspace not in it is not waited for. */
const plansOf = (source: DataSource) =>
  planCopyOf(source, { schema: 'register', reader: 'register' });

let store: MigratedDatabase;
let db: DataSource;
let service: MembersService;
let mailer: Mailer;
const mails: MailMessage[] = [];

/** Events go to register.outbox, as the app's OutboxModule writes them. */
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  Logger.overrideLogger(false); // the log-mode mailer prints every invitation
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  const config = loadRegisterConfig({ DATABASE_URL: store.database.url });
  mailer = new Mailer(config);
  const send = mailer.send.bind(mailer);
  jest.spyOn(mailer, 'send').mockImplementation((message) => {
    mails.push(message);
    return send(message);
  });
  service = new MembersService(
    db,
    new WriteTransactions(db),
    config,
    mailer,
    plansOf(db),
    writer,
    new ReadTransactions(db),
    activity,
  );
}, 30_000);

afterAll(async () => {
  await mailer?.onApplicationShutdown();
  await store?.close();
});

/**
 * The one place this file calls the service: a new workspace (in the register's copy of plan
 * facts, with this many seats) and bodies as its consumer receives them. Every call waits for
 * the facts to be stored first (those that read them).
 */
function workspace(seats: number | null = 25) {
  const caller: CallerContext = testCaller();
  // Stored when a call first needs it, never left running when a test ends.
  let stored: Promise<boolean> | undefined;
  const known = () => (stored ??= knownWorkspace(db, caller.workspaceId, seats));
  return {
    id: caller.workspaceId,
    invite: async (body: ClientBody<InviteMemberInput>) => {
      await known();
      return service.invite(caller, await received(InviteMemberInput, body));
    },
    update: async (userId: string, body: ClientBody<UpdateMemberInput>) =>
      service.update(caller, userId, await received(UpdateMemberInput, body)),
    list: () => service.list(caller),
    invitations: async () => {
      await known();
      return service.listInvitations({ workspace: caller.workspaceId });
    },
    createOwner: (email: string) =>
      service.createOwner({ workspace: caller.workspaceId, email, name: 'Owner' }),
    accept: async (token: string) => {
      await known();
      return service.accept({ token });
    },
    remove: (id: string, actor: string) =>
      service.remove({ workspace: caller.workspaceId, id, actor }),
    setRole: (id: string, role: MemberView['role'], actor: string) =>
      service.setRole({ workspace: caller.workspaceId, id, role, actor }),
    resend: (id: string, actor: string) =>
      service.resendInvitation({ workspace: caller.workspaceId, id, actor }),
    activity: () =>
      activity.page(db.manager, caller.workspaceId, { limit: 100, record_type: 'member' }),
  };
}

/** A member of `ws` with `role` who accepted (holds a seat). */
async function activeMember(
  ws: ReturnType<typeof workspace>,
  email: string,
  role: 'admin' | 'manager' | 'member',
): Promise<MemberView> {
  const invited = await ws.invite({ email, role });
  return ws.accept(await tokenOf(invited.id));
}

interface InvitationRow {
  id: string;
  member_id: string;
  token_hash: Buffer;
  expires_at: Date;
  accepted_at: Date | null;
}

function invitationRows(workspaceId: string): Promise<InvitationRow[]> {
  return db.query(
    `SELECT id, member_id, token_hash, expires_at, accepted_at FROM register.invitations
     WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
}

/** The token of the last link e-mailed to `email`: the one place a token exists. */
function mailedToken(email: string): string {
  const mail = mails.filter((message) => message.to === email).at(-1);
  const token = mail && /\/invitations\/accept#token=([A-Za-z0-9_-]{43})$/m.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation link mailed to ${email}`);
  return token;
}

/** The token of a member's last invitation, from its e-mail. */
async function tokenOf(memberId: string): Promise<string> {
  const [member] = await db.query<Array<{ email: string }>>(
    `SELECT email FROM register.members WHERE id = $1`,
    [memberId],
  );
  return mailedToken(member!.email);
}

function events(workspaceId: string): Promise<Array<{ event: string; data: unknown }>> {
  return db.query(
    `SELECT event, data FROM register.outbox WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
}

async function seatsUsed(workspaceId: string): Promise<number | null> {
  const rows = await db.query<Array<{ member_count: number }>>(
    `SELECT member_count FROM register.workspace_counters WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0]?.member_count ?? null;
}

/** Everything a refused write must leave as it was. */
async function snapshot(workspaceId: string) {
  return {
    members: await db.query<unknown[]>(
      `SELECT * FROM register.members WHERE workspace_id = $1 ORDER BY id`,
      [workspaceId],
    ),
    invitations: await invitationRows(workspaceId),
    events: await events(workspaceId),
    seats: await seatsUsed(workspaceId),
    mails: mails.length,
  };
}

describe('invite', () => {
  it('writes the invited member, a 7-day invitation and member.invited, then mails the link', async () => {
    const ws = workspace();
    const member = await ws.invite({ email: 'new@example.com', name: ' New ', role: 'manager' });
    expect(member).toMatchObject({
      email: 'new@example.com',
      name: 'New',
      role: 'manager',
      status: 'invited',
      joined_at: null,
    });
    expect(await ws.list()).toEqual([member]);
    const [invitation] = await invitationRows(ws.id);
    expect(invitation).toMatchObject({ member_id: member.id, accepted_at: null });
    expect(invitation!.expires_at.getTime() - Date.parse(member.invited_at!)).toBe(
      7 * 24 * 3600 * 1000,
    );
    expect(await events(ws.id)).toEqual([{ event: 'member.invited', data: member }]);
    const mail = mails.at(-1)!;
    expect(mail.to).toBe('new@example.com');
    const token = mailedToken('new@example.com');
    // The console's accept screen; the token in the fragment stays out of access logs.
    expect(mail.text).toContain(`http://127.0.0.1:3000/console/invitations/accept#token=${token}`);
    expect(invitation!.token_hash).toEqual(createHash('sha256').update(token).digest());
  });

  it('stores only a hash of the token: the e-mailed link is where it exists, and it is accepted', async () => {
    const ws = workspace();
    const member = await ws.invite({ email: 'hashed@example.com' });
    const token = mailedToken('hashed@example.com');
    const dump = JSON.stringify(
      await db.query(`SELECT * FROM register.invitations WHERE workspace_id = $1`, [ws.id]),
    );
    expect(dump).not.toContain(token);
    const [row] = await db.query<Array<{ token_hash: Buffer }>>(
      `SELECT token_hash FROM register.invitations WHERE member_id = $1`,
      [member.id],
    );
    expect(row!.token_hash.equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(await ws.invitations()).toEqual([
      {
        id: expect.stringMatching(/^inv_/) as string,
        email: 'hashed@example.com',
        role: 'member',
        expires_at: expect.any(String) as string,
      },
    ]);
    expect(await ws.accept(token)).toMatchObject({ id: member.id, status: 'active' });
  });

  it('puts no text of the caller in the e-mail: the name stays out of it', async () => {
    const ws = workspace();
    const name = 'Claim your prize at https://prize.example.net now';
    const member = await ws.invite({ email: 'relay@example.com', name });
    expect(member.name).toBe(name);
    const mail = mails.at(-1)!;
    expect(mail.to).toBe('relay@example.com');
    expect(`${mail.subject}\n${mail.text}`).not.toMatch(/prize/i);
  });

  it('refuses a new invitation while MAX_PENDING_INVITATIONS are open, and writes nothing', async () => {
    const config = loadRegisterConfig({
      DATABASE_URL: store.database.url,
      MAX_PENDING_INVITATIONS: '2',
    });
    const capped = new MembersService(
      db,
      new WriteTransactions(db),
      config,
      mailer,
      plansOf(db),
      writer,
      new ReadTransactions(db),
      activity,
    );
    const caller = testCaller();
    await knownWorkspace(db, caller.workspaceId, 25);
    const invite = async (email: string) =>
      capped.invite(caller, await received(InviteMemberInput, { email }));
    const first = await invite('one@example.com');
    await invite('two@example.com');
    const before = await snapshot(caller.workspaceId);
    expect(await domainRejection(invite('three@example.com'))).toMatchObject({
      code: 'conflict',
      message:
        '2 invitations are already pending in this workspace; more can be sent once some are accepted or expire',
    });
    expect(await snapshot(caller.workspaceId)).toEqual(before);

    // An accepted invitation is no longer pending: room for one more.
    await capped.accept({ token: await tokenOf(first.id) });
    expect((await invite('three@example.com')).status).toBe('invited');
  });

  it('refuses an e-mail already invited, whatever its case, and writes nothing', async () => {
    const ws = workspace();
    await ws.invite({ email: 'dup@example.com' });
    const before = await snapshot(ws.id);
    expect(await domainRejection(ws.invite({ email: 'DUP@example.com' }))).toMatchObject({
      code: 'conflict',
      message: 'DUP@example.com is already invited to this workspace',
    });
    expect(await snapshot(ws.id)).toEqual(before);
    // The e-mail is per workspace.
    expect((await workspace().invite({ email: 'dup@example.com' })).status).toBe('invited');
  });

  it('re-invites a member whose link expired once when re-invitations race', async () => {
    const ws = workspace();
    const member = await ws.invite({ email: 'again@example.com' });
    await db.query(
      `UPDATE register.invitations SET expires_at = now() - interval '1 second'
       WHERE member_id = $1`,
      [member.id],
    );
    const results = await Promise.allSettled(
      Array.from({ length: 3 }, () => ws.invite({ email: 'again@example.com' })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({
        code: 'conflict',
        message: 'again@example.com is already invited to this workspace',
      });
    }
    const open = (await invitationRows(ws.id)).filter((row) => row.expires_at > new Date());
    expect(open).toHaveLength(1);
    expect((await events(ws.id)).map((row) => row.event)).toEqual([
      'member.invited',
      'member.invited',
    ]);
  });

  it('refuses two concurrent invitations of one e-mail but one', async () => {
    const ws = workspace();
    const results = await Promise.allSettled([
      ws.invite({ email: 'race@example.com' }),
      ws.invite({ email: 'Race@example.com' }),
      ws.invite({ email: 'RACE@example.com' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({ code: 'conflict' });
    }
    expect(await invitationRows(ws.id)).toHaveLength(1);
    expect((await events(ws.id)).map((row) => row.event)).toEqual(['member.invited']);
  });

  it('refuses an active member, and invites again one whose link expired (same member)', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('boss@example.com');
    expect(await domainRejection(ws.invite({ email: 'Boss@example.com' }))).toMatchObject({
      code: 'conflict',
      message: 'Boss@example.com is already a member of this workspace',
    });
    const first = await ws.invite({ email: 'late@example.com', role: 'member' });
    await db.query(
      `UPDATE register.invitations SET expires_at = now() - interval '1 second'
       WHERE member_id = $1`,
      [first.id],
    );
    const again = await ws.invite({ email: 'Late@example.com', role: 'admin' });
    expect(again).toMatchObject({ id: first.id, email: 'Late@example.com', role: 'admin' });
    const invitations = await invitationRows(ws.id);
    expect(invitations.map((row) => row.member_id)).toEqual([first.id, first.id]);
    expect(invitations[1]!.expires_at.getTime()).toBeGreaterThan(Date.now());
    expect((await ws.list()).map((member) => member.id)).toEqual([owner.id, first.id]);
    expect((await events(ws.id)).map((row) => row.event)).toEqual([
      'member.invited',
      'member.invited',
    ]);
  });
});

describe('roles', () => {
  it('never gives the owner role and never changes the owner, and writes nothing then', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner@example.com');
    expect(owner).toMatchObject({ role: 'owner', status: 'active' });
    expect(await seatsUsed(ws.id)).toBe(1);
    const member = await ws.invite({ email: 'm@example.com' });
    const before = await snapshot(ws.id);
    expect(
      await domainRejection(ws.invite({ email: 'o2@example.com', role: 'owner' })),
    ).toMatchObject({
      code: 'forbidden',
      message: 'role owner cannot be given by an admin; an API key acts as admin',
    });
    expect(await domainRejection(ws.update(owner.id, { role: 'member' }))).toMatchObject({
      code: 'forbidden',
      message: "An owner's role cannot be changed by an admin; an API key acts as admin",
    });
    expect(await domainRejection(ws.update(member.id, { role: 'owner' }))).toMatchObject({
      code: 'forbidden',
    });
    expect(await snapshot(ws.id)).toEqual(before);
  });

  it('changes a role below the owner and stores it; another workspace sees not_found', async () => {
    const ws = workspace();
    const member = await ws.invite({ email: 'promote@example.com' });
    const promoted = await ws.update(member.id, { role: 'admin' });
    expect(promoted).toMatchObject({ id: member.id, role: 'admin' });
    const [row] = await db.query<Array<{ role: string }>>(
      `SELECT role FROM register.members WHERE id = $1`,
      [member.id],
    );
    expect(row!.role).toBe('admin');
    expect(await domainRejection(workspace().update(member.id, { role: 'member' }))).toMatchObject({
      code: 'not_found',
      message: `Member ${member.id} not found`,
    });
  });
});

describe('remove', () => {
  it('removes an active member: the seat is freed, member.removed carries the member as it was', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner@remove.example');
    const member = await activeMember(ws, 'leaving@remove.example', 'member');
    const seats = await seatsUsed(ws.id);

    const removed = await ws.remove(member.id, owner.id);
    expect(removed).toEqual(member);
    expect((await ws.list()).map((m) => m.id)).toEqual([owner.id]);
    expect(await seatsUsed(ws.id)).toBe(seats! - 1);
    expect((await events(ws.id)).at(-1)).toEqual({ event: 'member.removed', data: member });
    await expect(service.get({ workspace: ws.id, id: member.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('cancels an invitation when the invited member is removed: the link stops working, no seat moves', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner@cancel.example');
    const invited = await ws.invite({ email: 'never@cancel.example' });
    const token = await tokenOf(invited.id);
    const seats = await seatsUsed(ws.id);
    expect(await ws.remove(invited.id, owner.id)).toMatchObject({ status: 'invited' });
    expect(await invitationRows(ws.id)).toEqual([]);
    expect(await seatsUsed(ws.id)).toBe(seats);
    expect((await domainRejection(ws.accept(token))).code).toBe('not_found');
  });

  it('follows the hierarchy: only an owner removes an owner, an admin removes up to admins, a manager nobody, nobody themselves; refusals change nothing', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner@rules.example');
    const other = await ws.createOwner('other-owner@rules.example');
    const admin = await activeMember(ws, 'admin@rules.example', 'admin');
    const peer = await activeMember(ws, 'peer@rules.example', 'admin');
    const manager = await activeMember(ws, 'manager@rules.example', 'manager');
    const before = await snapshot(ws.id);

    const cases: Array<[string, string, string, string]> = [
      [admin.id, owner.id, 'forbidden', 'An owner cannot be removed by an admin'],
      [manager.id, admin.id, 'forbidden', 'A manager cannot remove members'],
      [
        owner.id,
        owner.id,
        'conflict',
        'You cannot remove yourself; another owner or admin can remove you',
      ],
    ];
    for (const [actor, target, code, message] of cases) {
      const refusal = await domainRejection(ws.remove(target, actor));
      expect({ actor, target, code: refusal.code, message: refusal.message }).toEqual({
        actor,
        target,
        code,
        message,
      });
    }
    expect(await snapshot(ws.id)).toEqual(before);

    expect((await ws.remove(peer.id, admin.id)).id).toBe(peer.id);
    expect((await ws.remove(other.id, owner.id)).id).toBe(other.id);
    // A removed actor acts no more.
    expect((await domainRejection(ws.remove(manager.id, peer.id))).code).toBe('not_found');
  });

  it("another workspace's member is not found, and so is an actor of another workspace", async () => {
    const ws = workspace();
    const there = workspace();
    const owner = await ws.createOwner('owner@here.example');
    const theirs = await there.createOwner('owner@there.example');
    expect((await domainRejection(ws.remove(theirs.id, owner.id))).code).toBe('not_found');
    expect((await domainRejection(ws.remove(owner.id, theirs.id))).code).toBe('not_found');
    expect((await there.list()).map((m) => m.id)).toEqual([theirs.id]);
  });
});

describe('accept', () => {
  it('activates the member and takes a seat; at the seat limit it refuses and the link stays open', async () => {
    const ws = workspace(2);
    await ws.createOwner('first@example.com');
    const ann = await ws.invite({ email: 'ann@example.com' });
    const ben = await ws.invite({ email: 'ben@example.com' });
    const accepted = await ws.accept(await tokenOf(ann.id));
    expect(accepted).toMatchObject({ id: ann.id, status: 'active' });
    expect(accepted.joined_at).not.toBeNull();
    expect(await seatsUsed(ws.id)).toBe(2);

    const before = await snapshot(ws.id);
    expect(await domainRejection(ws.accept(await tokenOf(ben.id)))).toMatchObject({
      code: 'limit_reached',
      message: 'Seat limit of 2 reached on the pro plan',
    });
    expect(await snapshot(ws.id)).toEqual(before);
    expect((await ws.invitations()).map((view) => view.email)).toEqual(['ben@example.com']);
    const crossings = (await events(ws.id)).filter((row) => row.event === 'plan.limit_reached');
    expect(crossings.map((row) => row.data)).toEqual([
      { workspace: { id: ws.id }, plan: 'pro', limit: 'seats', value: 2 },
    ]);
  });

  it('answers unavailable while the plan facts of the workspace have not arrived, and writes nothing', async () => {
    const caller = testCaller();
    const member = await service.invite(
      caller,
      await received(InviteMemberInput, { email: 'early@example.com' }),
    );
    const token = await tokenOf(member.id);
    const before = await snapshot(caller.workspaceId);
    expect(await domainRejection(service.accept({ token }))).toMatchObject({
      code: 'unavailable',
      message: `The plan of workspace ${caller.workspaceId} has not reached the register yet; try again in a moment`,
    });
    expect(await snapshot(caller.workspaceId)).toEqual(before);
    // Once they arrive, the same link works.
    await knownWorkspace(db, caller.workspaceId, 25);
    expect(await service.accept({ token })).toMatchObject({ id: member.id, status: 'active' });
  });

  it('lists no invitations of a workspace the gateway never stated: not_found', async () => {
    const unknown = testCaller().workspaceId;
    expect(await domainRejection(service.listInvitations({ workspace: unknown }))).toMatchObject({
      code: 'not_found',
      message: `Workspace ${unknown} not found`,
    });
  });

  it('refuses a link accepted already, an expired link and an unknown one', async () => {
    const ws = workspace();
    const once = await ws.invite({ email: 'once@example.com' });
    const token = await tokenOf(once.id);
    await ws.accept(token);
    expect(await domainRejection(ws.accept(token))).toMatchObject({
      code: 'conflict',
      message: 'This invitation has already been accepted',
    });

    const late = await ws.invite({ email: 'late@example.com' });
    await db.query(
      `UPDATE register.invitations SET expires_at = now() - interval '1 minute'
       WHERE member_id = $1`,
      [late.id],
    );
    const [expired] = await invitationRows(ws.id).then((rows) =>
      rows.filter((row) => row.member_id === late.id),
    );
    const before = await snapshot(ws.id);
    expect(await domainRejection(ws.accept(await tokenOf(late.id)))).toMatchObject({
      code: 'conflict',
      message: `This invitation expired at ${expired!.expires_at.toISOString()}; ask for a new one`,
    });
    expect(await snapshot(ws.id)).toEqual(before);
    expect(await ws.invitations()).toEqual([]);
    expect(await domainRejection(ws.accept('no-such-token'))).toMatchObject({
      code: 'not_found',
    });
  });

  it('lets one of two concurrent acceptances of one link win, counting one seat', async () => {
    const ws = workspace();
    const member = await ws.invite({ email: 'twice@example.com' });
    const token = await tokenOf(member.id);
    const results = await Promise.allSettled([ws.accept(token), ws.accept(token)]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({
      reason: { code: 'conflict', message: 'This invitation has already been accepted' },
    });
    expect(await seatsUsed(ws.id)).toBe(1);
  });

  it('gives the last seat to one of two concurrent acceptances', async () => {
    const ws = workspace(2);
    await ws.createOwner('owner@example.com');
    const a = await ws.invite({ email: 'a@example.com' });
    const b = await ws.invite({ email: 'b@example.com' });
    const results = await Promise.allSettled([
      ws.accept(await tokenOf(a.id)),
      ws.accept(await tokenOf(b.id)),
    ]);
    const refused = results.filter((result) => result.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'limit_reached' });
    expect(await seatsUsed(ws.id)).toBe(2);
    const statuses = (await ws.list()).map((view: MemberView) => view.status).sort();
    expect(statuses).toEqual(['active', 'active', 'invited']);
  });
});

describe('renew', () => {
  it('gives an open invitation a new link: the old one stops working, the new one is mailed and printed once', async () => {
    const ws = workspace();
    const member = await ws.invite({ email: 'lost@example.com', role: 'manager' });
    const old = mailedToken('lost@example.com');
    const [listed] = await ws.invitations();
    const renewed = await service.renewInvitation({ id: listed!.id });
    expect(renewed).toEqual({
      id: listed!.id,
      email: 'lost@example.com',
      role: 'manager',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as string,
      expires_at: expect.any(String) as string,
      accept_url: expect.stringMatching(/\/console\/invitations\/accept#token=/) as string,
    });
    expect(renewed.accept_url.endsWith(`#token=${renewed.token}`)).toBe(true);
    expect(renewed.token).not.toBe(old);
    expect(mailedToken('lost@example.com')).toBe(renewed.token);
    expect(Date.parse(renewed.expires_at)).toBeGreaterThanOrEqual(Date.parse(listed!.expires_at));
    expect(JSON.stringify(await invitationRows(ws.id))).not.toContain(renewed.token);
    expect(await domainRejection(ws.accept(old))).toMatchObject({ code: 'not_found' });
    expect(await ws.accept(renewed.token)).toMatchObject({ id: member.id, status: 'active' });
  });

  it('refuses an unknown, an accepted or an expired invitation, changing nothing', async () => {
    const ws = workspace();
    expect(await domainRejection(service.renewInvitation({ id: 'inv_nope' }))).toMatchObject({
      code: 'not_found',
      message: 'Invitation inv_nope not found',
    });
    const accepted = await ws.invite({ email: 'done@example.com' });
    await ws.accept(mailedToken('done@example.com'));
    const late = await ws.invite({ email: 'expired@example.com' });
    await db.query(
      `UPDATE register.invitations SET expires_at = now() - interval '1 minute'
       WHERE member_id = $1`,
      [late.id],
    );
    const rows = await invitationRows(ws.id);
    const before = await snapshot(ws.id);
    const idOf = (memberId: string) => rows.find((row) => row.member_id === memberId)!.id;
    expect(await domainRejection(service.renewInvitation({ id: idOf(accepted.id) }))).toMatchObject(
      { code: 'conflict', message: 'This invitation has already been accepted' },
    );
    const expired = rows.find((row) => row.member_id === late.id)!;
    expect(await domainRejection(service.renewInvitation({ id: expired.id }))).toMatchObject({
      code: 'conflict',
      message: `This invitation expired at ${expired.expires_at.toISOString()}; invite the e-mail again`,
    });
    expect(await snapshot(ws.id)).toEqual(before);
  });
});

/** Undoes the last migrations up to and including `name`; their names, oldest first. */
async function undoThrough(source: DataSource, name: string): Promise<string[]> {
  const undone: string[] = [];
  while (undone[0] !== name) {
    const [last] = await source.query<Array<{ name: string }>>(
      `SELECT name FROM register.migrations ORDER BY id DESC LIMIT 1`,
    );
    if (!last) throw new Error(`${name} was never applied`);
    await source.undoLastMigration({ transaction: 'each' });
    undone.unshift(last.name);
  }
  return undone;
}

describe('the migration that hashes invitation tokens', () => {
  it('hashes the tokens stored before it, so a link mailed before still works', async () => {
    const database = await createTestDatabase();
    const old = registerDataSource(database.url, 2);
    try {
      await migrateRegister(database.url);
      await old.initialize();
      // Back to before the hashing, undoing the migrations after it too.
      const undone = await undoThrough(old, 'HashInvitationTokens1763830000000');
      const ws = testCaller().workspaceId;
      const token = randomBytes(32).toString('base64url');
      await old.query(
        `INSERT INTO register.members (id, workspace_id, email, role, status, invited_at)
         VALUES ('usr_legacy', $1, 'legacy@example.com', 'member', 'invited', now())`,
        [ws],
      );
      await old.query(
        `INSERT INTO register.invitations (id, workspace_id, member_id, token, expires_at)
         VALUES ('inv_legacy', $1, 'usr_legacy', $2, now() + interval '1 day')`,
        [ws, token],
      );
      expect(await migrateRegister(database.url)).toEqual(undone);
      await knownWorkspace(old, ws, 25);
      const dump = JSON.stringify(await old.query(`SELECT * FROM register.invitations`));
      expect(dump).not.toContain(token);
      const legacy = new MembersService(
        old,
        new WriteTransactions(old),
        loadRegisterConfig({ DATABASE_URL: database.url }),
        mailer,
        plansOf(old),
        writer,
        new ReadTransactions(old),
        activity,
      );
      expect(await legacy.accept({ token })).toMatchObject({
        id: 'usr_legacy',
        status: 'active',
      });
    } finally {
      if (old.isInitialized) await old.destroy();
      await database.drop();
    }
  }, 30_000);
});

describe('list', () => {
  it("lists members oldest first (id breaks ties) and only the workspace's own", async () => {
    const ws = workspace();
    const ids = [];
    for (const email of ['x@example.com', 'y@example.com', 'z@example.com']) {
      ids.push((await ws.invite({ email })).id);
    }
    await workspace().invite({ email: 'elsewhere@example.com' });
    await db.query(
      `UPDATE register.members SET created_at = '2025-01-01T00:00:00Z' WHERE id = ANY($1)`,
      [[ids[1], ids[2]]],
    );
    expect((await ws.list()).map((member) => member.id)).toEqual([ids[1], ids[2], ids[0]]);
    expect(
      await domainRejection(service.listInvitations({ workspace: 'wsp_unknown' })),
    ).toMatchObject({ code: 'not_found' });
  });
});

describe('role changes, resends and the activity feed (the console)', () => {
  it("changes roles within the actor's own and records who did it, old and new", async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner@example.com');
    const admin = await activeMember(ws, 'admin@example.com', 'admin');
    const member = await activeMember(ws, 'member@example.com', 'member');

    expect((await ws.setRole(member.id, 'manager', admin.id)).role).toBe('manager');
    expect(await domainRejection(ws.setRole(member.id, 'owner', admin.id))).toMatchObject({
      code: 'forbidden',
    });
    expect(await domainRejection(ws.setRole(admin.id, 'member', admin.id))).toMatchObject({
      code: 'conflict',
      message: 'You cannot change your own role; another owner or admin can change it',
    });
    expect((await ws.setRole(admin.id, 'owner', owner.id)).role).toBe('owner');

    const [promoted, changed] = await ws.activity();
    expect(promoted).toMatchObject({
      source: 'console',
      actor: { type: 'member', id: owner.id, name: 'owner@example.com' },
      record_id: admin.id,
      record_name: 'admin@example.com',
      action: 'role_changed',
      changes: [{ field: 'role', from: 'admin', to: 'owner' }],
    });
    expect(changed).toMatchObject({
      actor: { id: admin.id, name: 'admin@example.com' },
      record_id: member.id,
      changes: [{ field: 'role', from: 'member', to: 'manager' }],
    });
  });

  it('a member removed a moment ago can no longer change roles', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner2@example.com');
    const admin = await activeMember(ws, 'admin2@example.com', 'admin');
    const member = await activeMember(ws, 'member2@example.com', 'member');
    await ws.remove(admin.id, owner.id);
    expect(await domainRejection(ws.setRole(member.id, 'manager', admin.id))).toMatchObject({
      code: 'forbidden',
      message: 'You are no longer a member of this workspace',
    });
  });

  it('resends an invitation with a new link, the old one refused, and records it', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner3@example.com');
    const invited = await ws.invite({ email: 'late@example.com', role: 'member' });
    const first = mailedToken('late@example.com');

    expect((await ws.resend(invited.id, owner.id)).status).toBe('invited');
    const second = mailedToken('late@example.com');
    expect(second).not.toBe(first);
    expect(await domainRejection(ws.accept(first))).toMatchObject({ code: 'not_found' });
    expect((await ws.accept(second)).status).toBe('active');
    expect(await domainRejection(ws.resend(invited.id, owner.id))).toMatchObject({
      code: 'conflict',
      message: 'late@example.com has already joined',
    });

    const actions = (await ws.activity()).map((entry) => [entry.action, entry.source]);
    expect(actions).toEqual([
      ['joined', 'cli'],
      ['invitation_resent', 'console'],
      ['invited', 'api'],
      ['created', 'cli'],
    ]);
  });

  it('a cancelled invitation and a removal read differently in the feed', async () => {
    const ws = workspace();
    const owner = await ws.createOwner('owner4@example.com');
    const invited = await ws.invite({ email: 'never@example.com', role: 'member' });
    const member = await activeMember(ws, 'gone@example.com', 'member');
    await ws.remove(invited.id, owner.id);
    await ws.remove(member.id, owner.id);
    const [removed, cancelled] = await ws.activity();
    expect([removed?.action, removed?.record_name]).toEqual(['removed', 'gone@example.com']);
    expect([cancelled?.action, cancelled?.record_name]).toEqual([
      'invitation_cancelled',
      'never@example.com',
    ]);
  });
});
