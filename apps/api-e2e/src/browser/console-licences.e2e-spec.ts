import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type EventEnvelope,
  type LicenseSeatChange,
  type PersonDetail,
  type Reminder,
  type WarrantyNotice,
  type WorkspaceView,
} from '@custodian/contracts';
import { WebhookReceiver, eventually, freePort } from '@custodian/testing';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Tenant, TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const PASSWORD = 'a long enough password';

/**
 * Licences, warranties and reminders in the console (issue 33), in real headless Chromium
 * against the real stack: buy a licence of 3 seats, assign 3, the 4th is refused with the count
 * named, release one (its event arrives), read the product key (owner), see it in the list with
 * its seats bar; offboard a holder through the dialog that lists their seats (the seat frees,
 * its event arrives); give an asset a warranty ending within 30 days (warranty.expiring
 * arrives); add a monthly reminder that fires twice across two months of the engine's clock;
 * see it all in the Overview's "Due soon".
 */
jest.setTimeout(60_000);

describe('licences in the console, in a browser (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50', OVERDUE_TEST_CLOCK: 'on' } });
  const receiver = new WebhookReceiver();
  const owner = 'it@hooli.example';
  let base: string;
  let browser: Browser;
  let page: Page;
  let tenant: Tenant;
  const people: PersonDetail[] = [];

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
      name: 'Hooli',
      plan: 'pro',
      owner_email: owner,
    });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: owner,
      password: PASSWORD,
    });
    tenant = new Tenant(stack, workspace, await stack.createKey(workspace.id, 'write'));
    await stack.workerAdminCall(WorkerAdminPatterns.webhookCreate, {
      workspace: workspace.id,
      url: receiver.url('/licences'),
      events: '*',
    });
    for (const name of [
      'Gavin Belson',
      'Richard Hendricks',
      'Dinesh Chugtai',
      'Bertram Gilfoyle',
    ]) {
      people.push((await tenant.post<PersonDetail>('/people', { full_name: name })).body);
    }
    const context = await newBrowserContext(browser, { viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${base}/console/sign-in`);
    await page.locator('#password-email').fill(owner);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
    await receiver.stop();
  });

  /** The envelopes of `event` the receiver has, once there are `count`. */
  function arrived<T extends object>(event: string, count = 1): Promise<EventEnvelope<T>[]> {
    return eventually(
      () => {
        const found = receiver
          .on('/licences')
          .filter((request) => request.headers['x-custodian-event'] === event)
          .map((request) => JSON.parse(request.rawBody) as EventEnvelope<T>);
        return found.length >= count
          ? Promise.resolve(found)
          : Promise.reject(new Error(`${found.length} of ${count} ${event}`));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  }

  async function open(label: string): Promise<void> {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: label, exact: true })
      .click();
  }

  async function assign(name: string): Promise<void> {
    const form = page.getByRole('form', { name: 'Assign a seat' });
    await form.getByLabel('Find a person').fill(name.split(' ')[0]!);
    await form.getByRole('button', { name: 'Find' }).click();
    await form.getByLabel('Person', { exact: true }).selectOption({ label: name });
    await form.getByRole('button', { name: 'Assign' }).click();
  }

  it('buys a licence of 3 seats, assigns 3, and the 4th is refused with the count named', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Licences', exact: true })
      .click();
    await page.getByText('No licences yet.').waitFor();
    await page.getByRole('link', { name: 'Add licence' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Figma Organization');
    await page.getByLabel('Vendor').fill('Figma');
    await page.getByLabel('Seats').fill('3');
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Last valid day').fill(soon);
    await page.getByLabel('Product key').fill('FIG-0000-1111');
    await page.getByRole('button', { name: 'Add licence' }).click();
    await page.getByRole('heading', { name: 'Figma Organization' }).waitFor();
    await page
      .locator('.page-head')
      .getByText(/Ends in 1[01] days/)
      .waitFor();
    for (const person of people.slice(0, 3)) {
      await assign(person.full_name);
      await page
        .getByRole('table', { name: 'Seats' })
        .getByRole('link', { name: person.full_name })
        .waitFor();
    }
    await page.getByText('3 of 3 seats').first().waitFor();
    await assign(people[3]!.full_name);
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/has all 3 seats in use/);
    await screenshot(page, 'licence-full');
  });

  it('releases a seat (the event arrives) and reads the product key', async () => {
    await page.getByRole('button', { name: `Release the seat of ${people[0]!.full_name}` }).click();
    await page.getByText('2 of 3 seats').first().waitFor();
    const released = await eventually(
      () => {
        const found = receiver
          .on('/licences')
          .filter((request) => request.headers['x-custodian-event'] === 'license.seat_released')
          .map((request) => JSON.parse(request.rawBody) as EventEnvelope<LicenseSeatChange>);
        return found.length > 0 ? Promise.resolve(found[0]!) : Promise.reject(new Error('not yet'));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(released.data).toMatchObject({
      seats: 3,
      seats_used: 2,
      seat: { person: { id: people[0]!.id } },
    });
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.getByText('FIG-0000-1111').waitFor();
    await screenshot(page, 'licence-page');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Licences', exact: true })
      .click();
    await page.getByRole('meter', { name: 'Seats of Figma Organization' }).waitFor();
    await screenshot(page, 'licences-list');
  });

  it('offboards a holder through the dialog that lists their seats, ticked by the workspace default; the seat frees', async () => {
    const holder = people[1]!;
    // The workspace's default first: releasing seats on offboarding, ticked on Licences.
    await open('Licences');
    await page.getByLabel('Release a person’s seats when they are offboarded').check();
    await page.getByText('Licence settings saved.').waitFor();
    await page.goto(`${base}/console/people/${holder.id}`);
    await page.getByRole('heading', { name: holder.full_name }).waitFor();
    await page
      .getByRole('region', { name: 'Licences' })
      .getByRole('link', { name: 'Figma Organization' })
      .waitFor();
    await page.getByRole('button', { name: 'Offboard' }).click();
    const dialog = page.getByRole('dialog', { name: `Offboard ${holder.full_name}?` });
    await dialog.getByText('They hold 1 licence seat:').waitFor();
    await expect(dialog.getByLabel('Release it with the offboarding').isChecked()).resolves.toBe(
      true,
    );
    await screenshot(page, 'person-offboard-seats');
    await dialog.getByRole('button', { name: 'Offboard' }).click();
    await page.getByText(`${holder.full_name} is offboarded. 1 licence seat released.`).waitFor();
    await page.getByText('No licence seats.').waitFor();
    const released = await arrived<LicenseSeatChange>('license.seat_released', 2);
    expect(released.map((envelope) => envelope.data.seat.person?.id)).toContain(holder.id);
    expect(released.at(-1)!.data.seats_used).toBe(1);
  });

  it('gives an asset a warranty ending within 30 days; warranty.expiring arrives', async () => {
    await open('Assets');
    await page.getByRole('link', { name: 'Add asset' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ThinkPad X1');
    const purchased = new Date(Date.now() - 700 * 86_400_000).toISOString().slice(0, 10);
    const ends = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Purchase date').fill(purchased);
    await page.getByLabel('Warranty ends').fill(ends);
    await page.getByRole('button', { name: 'Add asset' }).click();
    await page.getByRole('heading', { name: 'ThinkPad X1' }).waitFor();
    const warranty = page.getByRole('region', { name: 'Warranty' });
    await warranty.getByText(/Ends in 2[01] days/).waitFor();
    // 20 days left: inside the 30-day threshold, told at the engine's next sweep.
    await stack.registerAdminCall(RegisterAdminPatterns.overdueSweep, {
      at: new Date(Date.now() + 1_000).toISOString(),
    });
    const [expiring] = await arrived<WarrantyNotice>('warranty.expiring');
    expect(expiring!.data).toMatchObject({
      asset: { name: 'ThinkPad X1' },
      expires_on: ends,
    });
    await screenshot(page, 'asset-warranty');
  });

  it('logs a repair on the asset and resolves it; the status goes and comes back', async () => {
    const section = page.getByRole('region', { name: 'Maintenance' });
    const form = page.getByRole('form', { name: 'Log maintenance' });
    await form.getByLabel('Title').fill('Hinge cracked');
    await form.getByLabel('Type').selectOption({ label: 'Repair' });
    await form.getByLabel(/Put the asset in maintenance/).check();
    await form.getByRole('button', { name: 'Log maintenance' }).click();
    await page.locator('.page-head').getByText('In maintenance').waitFor();
    await section.getByRole('button', { name: 'Resolve Hinge cracked' }).click();
    const resolve = page.getByRole('form', { name: 'Resolve Hinge cracked' });
    await resolve.getByLabel('What was done').fill('Hinge replaced');
    await resolve.getByLabel('Final cost').fill('89.00');
    await resolve.getByRole('button', { name: 'Resolve' }).click();
    await section.getByText('Resolution: Hinge replaced').waitFor();
    await page.locator('.page-head').getByText('Active', { exact: true }).waitFor();
    const [created] = await arrived<{ title: string }>('maintenance.created');
    const [resolved] = await arrived<{ status: string; cost: string }>('maintenance.resolved');
    expect(created!.data.title).toBe('Hinge cracked');
    expect(resolved!.data).toMatchObject({ status: 'resolved', cost: '89.00' });
    // A yearly service left open, with its reminder every 12 months.
    await form.getByLabel('Title').fill('Yearly service');
    await form.getByLabel('Type').selectOption({ label: 'Service' });
    await form.getByLabel('Remind again every (months)').fill('12');
    await form.getByRole('button', { name: 'Log maintenance' }).click();
    await section.getByRole('row', { name: /Yearly service/ }).waitFor();
    const made = (await tenant.get<{ data: Reminder[] }>('/reminders')).body.data;
    expect(made.map((reminder) => [reminder.title, reminder.repeat])).toEqual([
      ['Yearly service', { every: 12, unit: 'month' }],
    ]);
  });

  it('adds a monthly reminder on the asset that fires twice across two months', async () => {
    await page.getByRole('link', { name: 'Add reminder' }).click();
    await page.getByLabel('What to do').fill('Check the battery');
    await page.getByLabel('Repeat', { exact: true }).check();
    await page.getByLabel('Every').fill('1');
    await page.getByLabel('Unit').selectOption('month');
    await page.getByRole('button', { name: 'Add reminder' }).click();
    await page.getByRole('heading', { name: 'Check the battery' }).waitFor();
    await page.getByText('Every month').waitFor();
    const shown = (await tenant.get<{ data: Reminder[] }>('/reminders')).body.data.find(
      (reminder) => reminder.title === 'Check the battery',
    )!;
    const first = new Date(shown.due_at);
    const second = new Date(shown.next_due_at ?? '');
    for (const at of [first, second]) {
      await stack.registerAdminCall(RegisterAdminPatterns.overdueSweep, {
        at: new Date(at.getTime() + 60_000).toISOString(),
      });
    }
    const due = await arrived<Reminder>('reminder.due', 2);
    expect(due.map((envelope) => envelope.data.due_at)).toEqual([
      first.toISOString(),
      second.toISOString(),
    ]);
    await page.reload();
    await page.getByText(/^2 times, last/).waitFor();
    await screenshot(page, 'reminder-page');
    // From the asset: its reminders, this one among them.
    await page.getByRole('link', { name: 'ThinkPad X1' }).first().click();
    await page.locator('.actions').getByRole('link', { name: 'Reminders', exact: true }).click();
    await page.getByText('About one asset only.').waitFor();
    await page.getByRole('link', { name: 'Check the battery' }).waitFor();
  });

  it('shows what ends and what is due in the Overview', async () => {
    await tenant.post('/reminders', {
      title: 'Return the projector',
      due_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    });
    await open('Overview');
    const panel = page.getByRole('region', { name: 'Due soon' });
    const column = (name: string) => panel.getByRole('region', { name });
    await column('Warranties ending').getByRole('link', { name: 'ThinkPad X1' }).waitFor();
    await column('Licences ending').getByRole('link', { name: 'Figma Organization' }).waitFor();
    await column('Reminders this week')
      .getByRole('link', { name: 'Return the projector' })
      .waitFor();
    await column('Open maintenance').getByText('· Yearly service').waitFor();
    await screenshot(page, 'overview-due-soon');
  });
});
