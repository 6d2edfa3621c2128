import {
  DomainError,
  RegisterAdminRpc,
  planFactsQueueOf,
  type MemberView,
  type SignInIdentity,
} from '@custodian/contracts';
import { RmqRpcClient, deleteTopology } from '@custodian/messaging';
import {
  createTestDatabase,
  eventually,
  uniqueSuffix,
  type TestDatabase,
} from '@custodian/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startRegister } from '../bootstrap';
import { loadRegisterConfig, type RegisterConfig } from '../config/register-config';
import { migrateRegister } from '../migrate';

/**
 * The whole register (Nest app, Postgres, RabbitMQ, SMTP) answering the gateway's sign-in
 * messages on its admin queue, as the gateway sends them: the handlers are wired, the contract
 * classes validate, refusals cross the broker with their code and message, and the link
 * arrives by real SMTP.
 */

interface ReceivedMail {
  to: string[];
  text: string;
}

/** The body of a message, quoted-printable decoded (nodemailer wraps long lines). */
function bodyOf(raw: string): string {
  return raw
    .slice(raw.indexOf('\r\n\r\n') + 4)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const suffix = uniqueSuffix();
const mails: ReceivedMail[] = [];
let smtp: SMTPServer;
let database: TestDatabase;
let config: RegisterConfig;
let app: NestFastifyApplication | null = null;
let admin: RmqRpcClient;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), text: bodyOf(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  database = await createTestDatabase();
  await migrateRegister(database.url);
  config = loadRegisterConfig({
    DATABASE_URL: database.url,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    PUBLIC_BASE_URL: 'https://custodian.example',
    HEALTH_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REGISTER_QUEUE: `custodian.register.rpc.t.${suffix}`,
    REGISTER_ADMIN_QUEUE: `custodian.register.admin.t.${suffix}`,
    EVENTS_EXCHANGE: `custodian.events.t.${suffix}`,
  });
  app = await startRegister(config);
  admin = new RmqRpcClient({
    url: config.RABBITMQ_URL,
    queue: config.REGISTER_ADMIN_QUEUE,
    timeoutMs: 5_000,
    connectionName: 'custodian-test-sign-in',
    serviceName: 'register',
  });
  await admin.connect();
}, 30_000);

afterAll(async () => {
  await admin?.close();
  await app?.close();
  await database?.drop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await deleteTopology(config.RABBITMQ_URL, 'custodian-test-cleanup', {
    queues: [
      config.REGISTER_QUEUE,
      config.REGISTER_ADMIN_QUEUE,
      planFactsQueueOf(config.EVENTS_EXCHANGE, 'register'),
    ],
    exchanges: [config.EVENTS_EXCHANGE],
  });
});

/** The refusal `work` ends with, as the gateway gets it from the broker. */
async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    (reply) => new Error(`resolved with ${JSON.stringify(reply)}`),
    (error: unknown) => error,
  );
  if (!(error instanceof DomainError)) throw error;
  return { code: error.code, message: error.message };
}

function linkMailedTo(email: string): Promise<string> {
  return eventually(() => {
    const mail = mails.filter((m) => m.to.includes(email)).at(-1);
    const link = mail && /^https:\/\/custodian\.example\/\S+$/m.exec(mail.text)?.[0];
    if (!link) throw new Error(`no link mailed to ${email} yet`);
    return Promise.resolve(link);
  });
}

async function owner(workspace: string, email: string): Promise<MemberView> {
  return admin.send(RegisterAdminRpc.ownerCreate, { workspace, email });
}

it('signs an owner of two workspaces in by an e-mailed console link, once', async () => {
  const first = await owner('wsp_signin_a', 'ops@example.com');
  const second = await owner('wsp_signin_b', 'Ops@Example.com');
  expect(await admin.send(RegisterAdminRpc.signInLink, { email: 'OPS@example.com' })).toEqual({
    sent: true,
  });
  const link = new URL(await linkMailedTo('OPS@example.com'));
  expect(link.origin + link.pathname).toBe('https://custodian.example/console/sign-in/link');
  expect(link.search).toBe('');
  const token = new URLSearchParams(link.hash.slice(1)).get('token')!;

  const identity: SignInIdentity = await admin.send(RegisterAdminRpc.signInRedeem, { token });
  expect(identity).toEqual({
    email: 'ops@example.com',
    memberships: [
      { workspace_id: 'wsp_signin_a', member_id: first.id, role: 'owner', name: null },
      { workspace_id: 'wsp_signin_b', member_id: second.id, role: 'owner', name: null },
    ],
  });
  expect(await refusal(admin.send(RegisterAdminRpc.signInRedeem, { token }))).toEqual({
    code: 'unauthenticated',
    message: 'This sign-in link is invalid, used or expired; ask for a new one',
  });
  expect(await admin.send(RegisterAdminRpc.memberships, { email: 'ops@example.com' })).toEqual(
    identity,
  );
  expect(await admin.send(RegisterAdminRpc.signInLink, { email: 'stranger@example.com' })).toEqual({
    sent: false,
  });
});

it('sets a password and signs in with it; refusals name the field or say it is wrong', async () => {
  const member = await owner('wsp_signin_c', 'pw@example.com');
  expect(
    await refusal(
      admin.send(RegisterAdminRpc.passwordSet, { email: 'pw@example.com', password: 'short' }),
    ),
  ).toEqual({ code: 'invalid_input', message: 'password must be between 12 and 256 characters' });
  const set = await admin.send(RegisterAdminRpc.passwordSet, {
    email: 'pw@example.com',
    password: 'twelve chars+',
  });
  expect(set.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const signedIn = await admin.send(RegisterAdminRpc.signInPassword, {
    email: 'pw@example.com',
    password: 'twelve chars+',
  });
  expect(signedIn.memberships.map((membership) => membership.member_id)).toEqual([member.id]);
  expect(
    await refusal(
      admin.send(RegisterAdminRpc.signInPassword, {
        email: 'pw@example.com',
        password: 'twelve chars-',
      }),
    ),
  ).toEqual({ code: 'unauthenticated', message: 'E-mail or password is incorrect' });
});

it('reads one member by workspace and id; another workspace or an unknown id is not_found', async () => {
  const member = await owner('wsp_signin_d', 'get@example.com');
  expect(
    await admin.send(RegisterAdminRpc.memberGet, { workspace: 'wsp_signin_d', id: member.id }),
  ).toEqual(member);
  expect(
    await refusal(
      admin.send(RegisterAdminRpc.memberGet, { workspace: 'wsp_signin_a', id: member.id }),
    ),
  ).toEqual({ code: 'not_found', message: `Member ${member.id} not found` });
});
