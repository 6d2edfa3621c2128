import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  type Asset,
  type Booking,
  type PersonDetail,
  type WorkspaceView,
} from '@custodian/contracts';
import { freePort } from '@custodian/testing';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { consoleMember } from '../support/console-sign-in';
import { Tenant, TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const PASSWORD = 'a long enough password';

/**
 * Bookings in the console, in real headless Chromium against the real stack (issue 32): a
 * manager books from the asset page's Book action, an overlapping booking is refused with the
 * booking in the way named on screen, a member's request is confirmed, handed out and taken
 * back from the booking page, and the calendar's week shows the booking. The browser runs in
 * UTC, so the datetime-local fields hold UTC times.
 */
jest.setTimeout(30_000);

describe('bookings in the console, in a browser (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const manager = 'ops@hooli.example';
  let base: string;
  let browser: Browser;
  let page: Page;
  let tenant: Tenant;
  let person: PersonDetail;
  let camera: Asset;
  let tripod: Asset;
  let mic: Asset;
  let bookingUrl = '';
  let member: Awaited<ReturnType<typeof consoleMember>>;

  /** Tomorrow at `hour` (UTC), as a datetime-local field holds it, and as an instant. */
  const tomorrow = (hour: number) => {
    const day = new Date();
    day.setUTCDate(day.getUTCDate() + 1);
    day.setUTCHours(Math.floor(hour), (hour % 1) * 60, 0, 0);
    return { field: day.toISOString().slice(0, 16), iso: day.toISOString() };
  };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    Object.assign(stack.env, {
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      CONSOLE_DIR: path.resolve(__dirname, '../../../../dist/apps/console'),
    });
    [browser] = await Promise.all([launchChromium(), stack.start()]);
    const workspace = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Hooli',
      plan: 'pro',
      owner_email: manager,
    });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: manager,
      password: PASSWORD,
    });
    tenant = new Tenant(stack, workspace, await stack.createKey(workspace.id, 'write'));
    person = (
      await tenant.post<PersonDetail>('/people', {
        full_name: 'Gavin Belson',
        email: 'gavin@hooli.example',
      })
    ).body;
    camera = (await tenant.post<Asset>('/assets', { name: 'Studio camera' })).body;
    tripod = (await tenant.post<Asset>('/assets', { name: 'Carbon tripod' })).body;
    mic = (await tenant.post<Asset>('/assets', { name: 'Boom mic' })).body;
    const context = await newBrowserContext(browser, {
      viewport: { width: 1280, height: 800 },
      timezoneId: 'UTC',
      locale: 'en-GB',
    });
    page = await context.newPage();
  }, 60_000);

  afterEach(async () => {
    const name = expect.getState().currentTestName?.replace(/\W+/g, '-') ?? 'test';
    await screenshot(page, `last-${name}`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  async function bookFromAssetPage(from: number, to: number): Promise<void> {
    await page.goto(`${base}/console/assets/${camera.id}`);
    await page.getByRole('heading', { name: 'Studio camera' }).waitFor();
    await page.getByRole('link', { name: 'Book', exact: true }).click();
    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    // The asset is chosen already.
    const chosen = page.getByRole('checkbox', { name: 'Studio camera' });
    await chosen.waitFor();
    expect(await chosen.isChecked()).toBe(true);
    await page.getByLabel('For', { exact: true }).selectOption({
      label: 'Gavin Belson (gavin@hooli.example)',
    });
    await page.getByLabel('From').fill(tomorrow(from).field);
    await page.getByLabel('Until').fill(tomorrow(to).field);
  }

  it('books the asset from its page: the manager’s booking is confirmed at once', async () => {
    await page.goto(`${base}/console/sign-in`);
    await page.locator('#password-email').fill(manager);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await bookFromAssetPage(10, 12);
    await page.getByLabel('Notes').fill('Keynote rehearsal');
    await screenshot(page, 'booking-form');
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await page.getByText('Booking made and confirmed.').waitFor();
    bookingUrl = page.url();
    expect(bookingUrl).toMatch(/\/console\/bookings\/bkg_\w+$/);
    const details = page.locator('dl.details');
    await details.getByText('Keynote rehearsal').waitFor();
    await details.getByRole('link', { name: 'Studio camera' }).waitFor();
    const booking = await tenant.get<Booking>(`/bookings/${bookingUrl.split('/').pop()}`);
    expect(booking.body).toMatchObject({
      status: 'confirmed',
      person: { id: person.id },
      assets: [expect.objectContaining({ id: camera.id })],
      starts_at: tomorrow(10).iso,
      ends_at: tomorrow(12).iso,
      notes: 'Keynote rehearsal',
    });
    await screenshot(page, 'booking-confirmed');
  });

  it('refuses an overlapping booking and names the booking in the way', async () => {
    await bookFromAssetPage(11, 13);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('The assets are already booked then:').waitFor();
    const bookingId = bookingUrl.split('/').pop()!;
    await alert.getByRole('link', { name: bookingId }).waitFor();
    expect(await alert.textContent()).toContain('Studio camera is held from');
    await screenshot(page, 'booking-conflict');
    // The conflict's link opens the booking in the way.
    await alert.getByRole('link', { name: bookingId }).click();
    await page.getByRole('heading', { name: 'Booking for Gavin Belson' }).waitFor();
    // Its end moves half an hour later from the same page.
    await page.getByRole('button', { name: 'Edit dates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the dates' });
    await dialog.getByLabel('Until').fill(tomorrow(12.5).field);
    await screenshot(page, 'booking-edit-dates');
    await dialog.getByRole('button', { name: 'Save dates' }).click();
    await page.getByText('Booking changed.').waitFor();
    const moved = await tenant.get<Booking>(`/bookings/${bookingId}`);
    expect([moved.body.starts_at, moved.body.ends_at]).toEqual([
      tomorrow(10).iso,
      tomorrow(12.5).iso,
    ]);
  });

  it('confirms a member’s request, checks it out and back in from the booking page', async () => {
    expect((await tenant.patch('/settings/bookings', { approval_required: true })).status).toBe(
      200,
    );
    member = await consoleMember(tenant, 'member', 'dinesh@hooli.example');
    const requested = await member.post<Booking>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [tripod.id, mic.id],
      starts_at: tomorrow(14).iso,
      ends_at: tomorrow(16).iso,
    });
    expect([requested.status, requested.body.status]).toEqual([201, 'requested']);

    await nav('Bookings');
    await page.getByRole('heading', { name: 'Bookings', exact: true }).waitFor();
    await page.getByLabel('Status').selectOption('requested');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('cell').getByText('Requested').waitFor();
    await page.getByRole('heading', { name: 'Booking settings' }).waitFor();
    expect(await page.getByLabel('Bookings by members need approval').isChecked()).toBe(true);
    await screenshot(page, 'bookings-list');

    await page.goto(`${base}/console/bookings/${requested.body.id}`);
    await page.getByRole('heading', { name: 'Booking for Gavin Belson' }).waitFor();
    await page.locator('.page-head').getByText('Requested').waitFor();
    await screenshot(page, 'booking-requested');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Booking confirmed.').waitFor();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByText('Checked out: each asset is with the person').waitFor();
    await page.locator('.page-head').getByText('Checked out').waitFor();
    const out = await tenant.get<Asset>(`/assets/${tripod.id}`);
    expect(out.body.assigned_to?.id).toBe(person.id);
    await screenshot(page, 'booking-checked-out');

    // Take back the tripod first, then the rest.
    await page.getByRole('button', { name: 'Check in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check in' });
    await dialog.getByRole('checkbox', { name: 'Boom mic' }).uncheck();
    await screenshot(page, 'booking-check-in');
    await dialog.getByRole('button', { name: 'Check in 1' }).click();
    await page.getByText('Checked in.').waitFor();
    await page.getByRole('button', { name: 'Check in' }).click();
    await page
      .getByRole('dialog', { name: 'Check in' })
      .getByRole('button', { name: 'Check in all' })
      .click();
    await page.getByText('every asset is back and the booking is completed').waitFor();
    await page.locator('.page-head').getByText('Completed').waitFor();
    const done = await tenant.get<Booking>(`/bookings/${requested.body.id}`);
    expect(done.body.status).toBe('completed');
    await screenshot(page, 'booking-completed');
  });

  it('rejects a member’s request with the reason, which the booking keeps', async () => {
    const requested = await member.post<Booking>('/console/api/bookings', {
      person_id: person.id,
      asset_ids: [mic.id],
      starts_at: tomorrow(18).iso,
      ends_at: tomorrow(19).iso,
    });
    expect(requested.body.status).toBe('requested');
    await page.goto(`${base}/console/bookings/${requested.body.id}`);
    await page.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this booking?' });
    // A reason is required.
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('Say why.').waitFor();
    await dialog.getByLabel('Why').fill('The mic is out for repair');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Booking rejected: its slot is free again.').waitFor();
    await page.locator('dl.details').getByText('“The mic is out for repair”').waitFor();
    await page.locator('.page-head').getByText('Rejected').waitFor();
    await screenshot(page, 'booking-rejected');
    const rejected = await tenant.get<Booking>(`/bookings/${requested.body.id}`);
    expect(rejected.body).toMatchObject({
      status: 'cancelled',
      cancellation: { reason: 'rejected', note: 'The mic is out for repair' },
    });
  });

  it('shows the bookings on the calendar’s week, a lane per asset', async () => {
    await nav('Calendar');
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    // The week of tomorrow (today may be a Sunday).
    await page.goto(`${base}/console/calendar?view=week&day=${tomorrow(0).field.slice(0, 10)}`);
    const lane = page.getByLabel('Studio camera', { exact: true });
    await lane.waitFor();
    expect(await lane.getByRole('link', { name: 'Gavin Belson' }).count()).toBe(1);
    for (const name of ['Carbon tripod', 'Boom mic']) {
      const other = page.getByLabel(name, { exact: true });
      expect(await other.getByRole('link', { name: 'Gavin Belson' }).count()).toBe(1);
    }
    await screenshot(page, 'calendar-week');
    await page.getByRole('button', { name: 'Month' }).click();
    await page.locator('.calendar-month').waitFor();
    await page.getByLabel('Studio camera', { exact: true }).waitFor();
    await screenshot(page, 'calendar-month');
    // A booking's lane link opens it.
    await page
      .getByLabel('Studio camera', { exact: true })
      .getByRole('link', { name: 'Gavin Belson' })
      .click();
    await page.getByRole('heading', { name: 'Booking for Gavin Belson' }).waitFor();
  });

  it('lists the bookings on the asset’s page and on the person’s', async () => {
    await page.goto(`${base}/console/assets/${camera.id}`);
    const onAsset = page.getByRole('region', { name: 'Bookings' });
    await onAsset.getByRole('cell', { name: 'Confirmed' }).waitFor();
    await screenshot(page, 'asset-bookings');
    await page.goto(`${base}/console/people/${person.id}`);
    const onPerson = page.getByRole('region', { name: 'Bookings' });
    await onPerson.getByRole('cell', { name: 'Completed' }).waitFor();
    await onPerson.getByRole('link', { name: 'Book', exact: true }).click();
    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    expect(await page.getByLabel('For', { exact: true }).inputValue()).toBe(person.id);
    await screenshot(page, 'person-book');
  });
});
