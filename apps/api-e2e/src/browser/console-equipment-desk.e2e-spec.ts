import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type AssetDetail,
  type AssetRequest,
  type Booking,
  type EventEnvelope,
  type InvitationView,
  type MemberView,
  type PersonDetail,
  type RenewedInvitationView,
  type WorkspaceView,
} from '@custodian/contracts';
import { WebhookReceiver, eventually, freePort } from '@custodian/testing';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Tenant, TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const PASSWORD = 'a long enough password';
const DAY = 86_400_000;

/** A `datetime-local` value of the browser (same machine, same time zone as this process). */
function local(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** Next Friday (a week on if today is one), at `hour`:00 local time. */
function friday(hour: number): Date {
  const now = new Date();
  const ahead = (5 - now.getDay() + 7) % 7 || 7;
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + ahead, hour, 0);
}

/** Weeks (Monday first, as the console's calendar) from this one to the one holding `date`. */
function weeksAhead(date: Date): number {
  const monday = (day: Date) =>
    new Date(day.getFullYear(), day.getMonth(), day.getDate() - ((day.getDay() + 6) % 7));
  return Math.round((monday(date).getTime() - monday(new Date()).getTime()) / (7 * DAY));
}

/**
 * Issue 32's day at the equipment desk, in real headless Chromium against the real stack: a
 * member asks for a camera for Friday, a manager approves it as a booking, Friday's check-out
 * comes from the booking, the camera comes back late (the injected clock passes the end: the
 * overdue event arrives), and a second request for the same Friday is refused with the
 * booking in the way named. A local receiver sees every event, signed.
 */
jest.setTimeout(60_000);

describe('a day at the equipment desk, in a browser (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50', OVERDUE_TEST_CLOCK: 'on' } });
  const receiver = new WebhookReceiver();
  const manager = 'desk@acme-studio.example';
  const member = 'ada@acme-studio.example';
  let base: string;
  let browser: Browser;
  let tenant: Tenant;
  let ada: PersonDetail;
  let camera: AssetDetail;
  let requestUrl = '';
  let booking: Booking;

  beforeAll(async () => {
    await receiver.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    Object.assign(stack.env, {
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      CONSOLE_DIR: path.resolve(__dirname, '../../../../dist/apps/console'),
    });
    [browser] = await Promise.all([launchChromium(), stack.start()]);
    const workspace = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Acme Studio',
      plan: 'pro',
      owner_email: manager,
    });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: manager,
      password: PASSWORD,
    });
    tenant = new Tenant(stack, workspace, await stack.createKey(workspace.id, 'write'));
    await stack.workerAdminCall(WorkerAdminPatterns.webhookCreate, {
      workspace: workspace.id,
      url: receiver.url('/desk'),
      events: '*',
    });
    // The member: invited with the key, the invitation accepted, a password to sign in with.
    expect(
      (await tenant.post<MemberView>('/members', { email: member, role: 'member' })).status,
    ).toBe(201);
    const open = await stack.registerAdminCall<InvitationView[]>(
      RegisterAdminPatterns.invitationList,
      { workspace: workspace.id },
    );
    const renewed = await stack.registerAdminCall<RenewedInvitationView>(
      RegisterAdminPatterns.invitationRenew,
      { id: open.find((each) => each.email === member)!.id },
    );
    await stack.registerAdminCall(RegisterAdminPatterns.invitationAccept, { token: renewed.token });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: member,
      password: PASSWORD,
    });
    ada = (await tenant.post<PersonDetail>('/people', { full_name: 'Ada Lovelace' })).body;
    camera = (
      await tenant.post<AssetDetail>('/assets', { name: 'Sony A7 IV', category: 'Cameras' })
    ).body;
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
    await receiver.stop();
  });

  async function signedIn(email: string): Promise<Page> {
    const context = await newBrowserContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/console/sign-in`);
    await page.locator('#password-email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    return page;
  }

  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  /** The envelopes of `event` delivered so far whose data mentions `id`, once there are `count`. */
  async function arrived<T extends object = object>(
    event: string,
    id: string,
    count = 1,
  ): Promise<EventEnvelope<T>[]> {
    return eventually(
      () => {
        const found = receiver
          .on('/desk')
          .filter((request) => request.headers['x-custodian-event'] === event)
          .filter((request) => request.rawBody.includes(id))
          .map((request) => JSON.parse(request.rawBody) as EventEnvelope<T>);
        return found.length >= count
          ? Promise.resolve(found)
          : Promise.reject(new Error(`${found.length} of ${count} ${event}`));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  }

  /** Asks, as the member, for any camera for Ada on Friday; lands on the request's page. */
  async function askForFriday(page: Page, note: string): Promise<void> {
    await nav(page, 'Requests');
    await page.getByRole('link', { name: 'Ask for an asset' }).click();
    await page.getByLabel('Any asset of a category').check();
    await page.getByLabel('Category', { exact: true }).fill('Cameras');
    await page.getByLabel('Find a person').fill('Ada');
    await page.getByLabel('Find a person').press('Enter');
    await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Ada Lovelace' });
    await page.getByLabel('Needed from').fill(local(friday(9)));
    await page.getByLabel('Until', { exact: true }).fill(local(friday(18)));
    await page.getByLabel('Note for the manager').fill(note);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.getByRole('heading', { name: 'Any Cameras' }).waitFor();
  }

  it('a member asks for a camera for Friday; it waits for a manager', async () => {
    const page = await signedIn(member);
    await askForFriday(page, 'Product shoot');
    await page.getByText('Waiting for a manager to approve or reject it.').waitFor();
    requestUrl = page.url();
    await screenshot(page, 'desk-request-asked');
    const [created] = await arrived<AssetRequest>('request.created', requestUrl.split('/').pop()!);
    expect(created!.data.status).toBe('pending');
    // The member decides nothing.
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page.context().close();
  });

  it('the manager approves it from the inbox as a booking of the Sony', async () => {
    const page = await signedIn(manager);
    await nav(page, 'Requests');
    await page.getByRole('link', { name: 'Pending', exact: true }).click();
    await page.getByRole('link', { name: 'Any Cameras' }).click();
    await screenshot(page, 'desk-request-inbox');
    const approve = page.getByRole('form', { name: 'Approve' });
    await approve.getByLabel('Find an asset').fill('Sony');
    await approve.getByRole('button', { name: 'Find' }).click();
    await approve.getByLabel(/Asset given/).selectOption({ label: 'Sony A7 IV · Cameras' });
    await expect(approve.getByLabel('Book it for the dates').isChecked()).resolves.toBe(true);
    await approve.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Approved' }).waitFor();
    await screenshot(page, 'desk-request-approved');
    const id = requestUrl.split('/').pop()!;
    const [approved] = await arrived<AssetRequest>('request.approved', id);
    const bookingId = approved!.data.decision!.booking_id!;
    await page.getByText(bookingId).waitFor();
    const [confirmed] = await arrived<Booking>('booking.confirmed', bookingId);
    booking = confirmed!.data;
    expect(booking).toMatchObject({
      status: 'confirmed',
      person: { id: ada.id },
      assets: [{ id: camera.id }],
      starts_at: friday(9).toISOString(),
      ends_at: friday(18).toISOString(),
    });
    await page.context().close();
  });

  it('Friday: handed out from the booking page, back late (the overdue event arrives), then in', async () => {
    const page = await signedIn(manager);
    // The week of Friday in the Calendar: the booking in the Sony's lane.
    await nav(page, 'Calendar');
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    for (let week = 0; week < weeksAhead(friday(9)); week += 1) {
      await page.getByRole('button', { name: 'Next' }).click();
    }
    const lane = page.getByLabel('Sony A7 IV', { exact: true });
    await lane.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    await screenshot(page, 'desk-calendar-week');
    await lane.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Booking for Ada Lovelace' }).waitFor();
    // Early on Friday's date, before its start: the camera is free, so the booking hands out.
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.locator('.page-head').getByText('Checked out').waitFor();
    await arrived('assignment.checked_out', camera.id);
    await arrived('booking.checked_out', booking.id);
    // The clock passes Friday 18:00 with the camera still out.
    await stack.registerAdminCall(RegisterAdminPatterns.overdueSweep, {
      at: new Date(friday(18).getTime() + 3_600_000).toISOString(),
    });
    const [overdue] = await arrived<Booking>('booking.overdue', booking.id);
    expect(overdue!.data.status).toBe('overdue');
    await page.reload();
    await page.locator('.page-head').getByText('Overdue').waitFor();
    await screenshot(page, 'desk-booking-overdue');
    await page.getByRole('button', { name: 'Check in' }).click();
    await page
      .getByRole('dialog', { name: 'Check in' })
      .getByRole('button', { name: 'Check in all' })
      .click();
    await page.locator('.page-head').getByText('Completed').waitFor();
    await arrived('booking.completed', booking.id);
    await arrived('assignment.checked_in', camera.id);
    await screenshot(page, 'desk-booking-completed');
    await page.context().close();
  });

  it('a second request for the same Friday: approving it names the booking in the way', async () => {
    // A booking of next Friday again, then a member asks for the same slot.
    const held = await tenant.post<Booking>('/bookings', {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: new Date(friday(9).getTime() + 7 * DAY).toISOString(),
      ends_at: new Date(friday(18).getTime() + 7 * DAY).toISOString(),
    });
    expect(held.status).toBe(201);
    const asking = await signedIn(member);
    await nav(asking, 'Requests');
    await asking.getByRole('link', { name: 'Ask for an asset' }).click();
    await asking.getByLabel('Find an asset').fill('Sony');
    await asking.getByRole('button', { name: 'Find' }).first().click();
    await asking
      .getByLabel('Asset', { exact: true })
      .selectOption({ label: 'Sony A7 IV · Cameras' });
    await asking.getByLabel('Find a person').fill('Ada');
    await asking.getByLabel('Find a person').press('Enter');
    await asking.getByLabel('Person', { exact: true }).selectOption({ label: 'Ada Lovelace' });
    await asking.getByLabel('Needed from').fill(local(new Date(friday(10).getTime() + 7 * DAY)));
    await asking
      .getByLabel('Until', { exact: true })
      .fill(local(new Date(friday(12).getTime() + 7 * DAY)));
    await asking.getByRole('button', { name: 'Ask', exact: true }).click();
    await asking.getByRole('heading', { name: /Sony A7 IV/ }).waitFor();
    const url = asking.url();
    await asking.context().close();

    const page = await signedIn(manager);
    await page.goto(url);
    await page
      .getByRole('form', { name: 'Approve' })
      .getByRole('button', { name: 'Approve' })
      .click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toContain(held.body.id);
    await screenshot(page, 'desk-request-conflict');
    // Still pending: nothing of the approval was written.
    await page.reload();
    await page.getByRole('form', { name: 'Approve' }).waitFor();
    await page.context().close();
  });
});
