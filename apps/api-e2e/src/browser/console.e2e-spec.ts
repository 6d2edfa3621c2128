import {
  DomainError,
  GatewayAdminPatterns,
  WorkerAdminPatterns,
  type CreatedWebhookView,
  type WebhookEndpointView,
  type WorkspaceView,
} from '@custodian/contracts';
import { WebhookReceiver, eventually, freePort, httpRequest } from '@custodian/testing';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConsoleClient } from '../support/console-client';
import { MailSink } from '../support/mail-sink';
import { TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const LINK = /(http:\/\/\S+\/console\/sign-in\/link#token=[A-Za-z0-9_-]+)/;

/**
 * The console as a person uses it, in real headless Chromium against the real stack: sign in
 * by the e-mailed link, create a key and call the API with it, add an endpoint to a local
 * receiver, press Test and follow the delivery into the log, resend a failed one, revoke the key. Only the keyboard and the mouse, through labels and roles a person reads.
 */
jest.setTimeout(30_000);

describe('the console in a browser (e2e)', () => {
  // Two Test pings a minute per endpoint: the test of the endpoint page meets the limit. An
  // endpoint is auto-disabled after 3 failed deliveries in a row, however young the run, so
  // the endpoint-health test takes a second or two (the other tests fail one at most).
  const stack = new TestStack({
    env: {
      SIGN_IN_LINKS_PER_ACCOUNT: '50',
      CONSOLE_PINGS_PER_MINUTE: '2',
      WEBHOOK_AUTO_DISABLE_AFTER_FAILURES: '3',
      WEBHOOK_AUTO_DISABLE_AFTER_HOURS: '0',
    },
  });
  const mail = new MailSink();
  const receiver = new WebhookReceiver();
  const owner = 'ada@acme.example';
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workspace: WorkspaceView;

  beforeAll(async () => {
    await Promise.all([mail.start(), receiver.start()]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    Object.assign(stack.env, {
      SMTP_URL: mail.url,
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      CONSOLE_DIR: path.resolve(__dirname, '../../../../dist/apps/console'),
    });
    [browser] = await Promise.all([launchChromium(), stack.start()]);
    workspace = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Acme',
      plan: 'pro',
      owner_email: owner,
    });
    context = await newBrowserContext(browser, { viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
  }, 60_000);

  // What the page showed when each test ended: the first thing to look at when one fails.
  afterEach(async () => {
    const name = expect.getState().currentTestName?.replace(/\W+/g, '-') ?? 'test';
    await screenshot(page, `last-${name}`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
    await Promise.all([mail.stop(), receiver.stop()]);
  });

  /** A link of the main navigation (the sidebar). */
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();

  it('signs the owner in by the e-mailed link', async () => {
    await page.goto(`${base}/console`);
    await page.getByRole('heading', { name: 'Sign in to Custodian' }).waitFor();
    await screenshot(page, 'sign-in');
    await page.locator('#link-email').fill(owner);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText(`If ${owner} is a member, a link is on its way`).waitFor();
    const [, link] = await mail.latest(owner, LINK);

    await page.goto(link!);
    await page.getByText(owner).first().waitFor();
    expect(page.url()).not.toContain('token=');
    await page.getByText('Acme').first().waitFor();
    await screenshot(page, 'overview');
  });

  it('folds the navigation behind a Menu button on a narrow window', async () => {
    const menu = page.getByRole('button', { name: 'Menu' });
    const main = page.getByRole('navigation', { name: 'Main' });
    const focused = (locator: typeof menu) =>
      locator.evaluate((element) => element === document.activeElement);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await main.waitFor({ state: 'hidden' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await screenshot(page, 'narrow-overview');

      await menu.click();
      await main.waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      expect(await main.getByRole('heading').allInnerTexts()).toEqual([
        'REGISTER',
        'INTEGRATIONS',
        'WORKSPACE',
      ]);
      // The links come next in the tab order; Escape closes the menu, the button has the focus.
      await page.keyboard.press('Tab');
      expect(await focused(main.getByRole('link', { name: 'Overview' }))).toBe(true);
      await screenshot(page, 'narrow-menu');
      await page.keyboard.press('Escape');
      await main.waitFor({ state: 'hidden' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await focused(menu)).toBe(true);

      // Opened from the keyboard; following a link closes it.
      await page.keyboard.press('Enter');
      await main.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      await main.waitFor({ state: 'hidden' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await screenshot(page, 'narrow-keys');
      // The keys table scrolls in its box; the page itself does not scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      // Opened again, it marks where the person is.
      await menu.click();
      const current = main.getByRole('link', { name: 'API keys' });
      expect(await current.getAttribute('aria-current')).toBe('page');
      expect(await main.locator('[aria-current]').count()).toBe(1);
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // Wide again: the sidebar is back beside the page, without the button.
    await main.waitFor();
    expect(await menu.isVisible()).toBe(false);
  });

  it('creates a key shown once, which calls the API, and revokes it', async () => {
    await nav('API keys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.locator('#key-name').fill('Deploy bot');
    await page.getByLabel(/write/i).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const key =
      (await dialog
        .locator('input, code, textarea')
        .first()
        .inputValue()
        .catch(() => null)) ?? (await dialog.locator('code').first().innerText());
    expect(key).toMatch(/^cus_[0-9A-Za-z]{40}$/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await screenshot(page, 'key-created');
    await dialog.getByRole('button', { name: 'I have copied the key' }).click();

    const ping = await httpRequest(`${base}/api/v1/ping`, { headers: { 'x-api-key': key } });
    expect(ping.status).toBe(200);

    const row = page.getByRole('row', { name: /Deploy bot/ });
    await row.waitFor();
    expect(await row.innerText()).toContain(owner);
    await screenshot(page, 'keys');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    const refused = await httpRequest(`${base}/api/v1/ping`, { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(401);
  });

  it('adds an endpoint, sends a Test ping and follows it into the delivery log', async () => {
    await nav('Webhooks');
    await page.getByRole('link', { name: /Add endpoint/ }).click();
    await page.locator('#endpoint-url').fill(receiver.url('/hooks'));
    await page.locator('#endpoint-description').fill('Local receiver');
    await page.getByLabel(/All events/).check();
    await screenshot(page, 'endpoint-form');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const added = page.getByRole('dialog');
    expect(await added.getByRole('textbox').inputValue()).toMatch(/^whsec_/);
    await screenshot(page, 'endpoint-added');
    await added.getByRole('button', { name: 'Go to the endpoint' }).click();
    await page.getByRole('button', { name: 'Send test ping' }).waitFor();

    await page.getByRole('button', { name: 'Send test ping' }).click();
    await eventually(() =>
      receiver.on('/hooks').length > 0 ? Promise.resolve() : Promise.reject(new Error('no ping')),
    );
    const ping = receiver.on('/hooks')[0]!;
    expect(ping.headers['x-custodian-event']).toBe('ping');
    // The endpoint page follows the pending ping to its outcome without a reload.
    await page
      .getByRole('table', { name: 'Recent deliveries of this endpoint' })
      .getByText('Delivered')
      .waitFor({ timeout: 5_000 });
    await page.getByText('100% of 1 delivery').waitFor();
    await screenshot(page, 'endpoint');

    await nav('Delivery log');
    const delivered = page.getByRole('row', { name: /ping/ }).first();
    await eventually(
      async () => {
        await page.reload();
        const text = await delivered.innerText({ timeout: 1_000 });
        if (!/delivered/i.test(text)) throw new Error(`not delivered yet: ${text}`);
      },
      { timeoutMs: 10_000, intervalMs: 300 },
    );
    await screenshot(page, 'delivery-log');
    await delivered.getByRole('link').first().click();
    await page
      .getByText(ping.headers['x-custodian-delivery'] as string)
      .first()
      .waitFor();
    await page.getByText('200').first().waitFor();
    await screenshot(page, 'delivery');
  });

  it('resends a failed delivery as a new chain under the same delivery id', async () => {
    // Three refusals use up the first chain; the resend's first attempt then succeeds.
    const before = receiver.on('/hooks').length;
    receiver.script('/hooks', { status: 500 }, { status: 500 }, { status: 500 }, { status: 200 });
    await page.getByRole('link', { name: receiver.url('/hooks') }).click();
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await eventually(
      () =>
        receiver.on('/hooks').length >= before + 3
          ? Promise.resolve()
          : Promise.reject(new Error('fewer than 3 attempts')),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const failedId = receiver.on('/hooks')[before]!.headers['x-custodian-delivery'] as string;

    await nav('Delivery log');
    const failed = page.getByRole('row', { name: /failed/i }).first();
    await eventually(
      async () => {
        await page.reload();
        await failed.waitFor({ timeout: 1_000 });
      },
      { timeoutMs: 10_000, intervalMs: 300 },
    );
    await screenshot(page, 'delivery-log-failed');
    await failed.getByRole('link').first().click();
    await page.getByText(failedId).first().waitFor();
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Resent: a new chain').waitFor();

    await eventually(
      () =>
        receiver.on('/hooks').length >= before + 4
          ? Promise.resolve()
          : Promise.reject(new Error('no resend yet')),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const resent = receiver.on('/hooks')[before + 3]!;
    expect(resent.headers['x-custodian-delivery']).toBe(failedId);
    await eventually(
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Resend 1, attempt 1: HTTP 200' }).waitFor({
          timeout: 1_000,
        });
      },
      { timeoutMs: 10_000, intervalMs: 300 },
    );
    expect(
      await page.getByRole('heading', { name: /First send, attempt \d: HTTP 500/ }).count(),
    ).toBe(3);
    await screenshot(page, 'delivery-resent');
  });

  it('refuses a second endpoint for a URL, and deletes an endpoint once asked to', async () => {
    await nav('Webhooks');
    await page.getByRole('link', { name: /Add endpoint/ }).click();
    await page.locator('#endpoint-url').fill(receiver.url('/hooks'));
    await page.getByLabel(/All events/).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText(/already sends to/).waitFor();
    await screenshot(page, 'endpoint-url-taken');

    await page.locator('#endpoint-url').fill(receiver.url('/doomed'));
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Go to the endpoint' }).click();
    // Test pings are metered per endpoint (two a minute here): the third is refused in words.
    const ping = page.getByRole('button', { name: 'Send test ping' });
    for (let i = 0; i < 2; i++) {
      await ping.click();
      await page.getByText('Ping sent.').waitFor();
    }
    await ping.click();
    await page
      .getByText(/Too many test pings: at most 2 a minute; try again in \d+ seconds?/)
      .waitFor();
    await screenshot(page, 'endpoint-ping-limit');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('This cannot be undone').waitFor();
    await screenshot(page, 'endpoint-delete');
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText(`${receiver.url('/doomed')} was deleted.`).waitFor();
    await page.getByRole('link', { name: receiver.url('/hooks') }).waitFor();
    expect(await page.getByRole('link', { name: receiver.url('/doomed') }).count()).toBe(0);
    await screenshot(page, 'endpoint-deleted');
  });

  it('an endpoint disabled for its failures: the owner gets an e-mail, every page a banner', async () => {
    receiver.script('/down', { status: 500 });
    const created = await stack.workerAdminCall<CreatedWebhookView>(
      WorkerAdminPatterns.webhookCreate,
      { workspace: workspace.id, url: receiver.url('/down'), events: '*' },
    );
    // Three Test pings that fail (each after its 3 attempts): three failed deliveries in a row.
    await Promise.all(
      [1, 2, 3].map(() =>
        stack.workerAdminCall(WorkerAdminPatterns.webhookTest, { id: created.id }),
      ),
    );

    // The worker's outbox, the register's queue, the SMTP server: the owner is told.
    const [text] = await mail.latest(owner, /Custodian disabled the webhook endpoint [^]*/);
    expect(text).toContain(`${receiver.url('/down')} (${created.id})`);
    expect(text).toContain('3 deliveries in a row failed');
    expect(text).toContain(`${base}/console/webhooks/${created.id}`);
    const notices = mail.mails.filter((each) => each.text.includes('Custodian disabled'));
    expect(notices.map((each) => each.to)).toEqual([[owner]]);

    // The console API reports it (the browser's session).
    const listed = await page.request.get(`${base}/console/api/webhooks`);
    expect(listed.status()).toBe(200);
    const endpoint = ((await listed.json()) as WebhookEndpointView[]).find(
      (each) => each.id === created.id,
    );
    expect(endpoint).toMatchObject({
      enabled: false,
      disabled_reason: 'auto',
      consecutive_failures: 3,
    });
    // ...and lists the notice in the catalog, console-only (never an endpoint's event).
    const catalog = (await (await page.request.get(`${base}/console/api/events`)).json()) as Array<{
      module: string;
      events: Array<{ key: string; subscribable: boolean }>;
    }>;
    expect(catalog.find((module) => module.module === 'endpoint')?.events).toEqual([
      expect.objectContaining({ key: 'endpoint.disabled', subscribable: false }),
    ]);
    const subscribing = await stack
      .workerAdminCall(WorkerAdminPatterns.webhookCreate, {
        workspace: workspace.id,
        url: receiver.url('/notices'),
        events: 'endpoint.disabled',
      })
      .catch((error: unknown) => error);
    expect(subscribing).toBeInstanceOf(DomainError);
    expect(subscribing).toMatchObject({ code: 'invalid_input' });

    // A banner on every page names it and leads to it.
    await nav('Overview');
    const banner = page.getByRole('alert').filter({ hasText: 'disabled after failed deliveries' });
    await banner.getByRole('link', { name: receiver.url('/down') }).waitFor();
    await screenshot(page, 'endpoint-health-banner');
    await nav('Assets');
    await banner.waitFor();
    await banner.getByRole('link', { name: receiver.url('/down') }).click();
    await page.getByText('Auto-disabled').first().waitFor();
    await screenshot(page, 'endpoint-health-endpoint');

    // Fixed and enabled again: the banner goes.
    receiver.script('/down', { status: 200 });
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await banner.waitFor({ state: 'detached' });
    await nav('Webhooks');
    expect(await banner.count()).toBe(0);
    await stack.workerAdminCall(WorkerAdminPatterns.webhookDelete, { id: created.id });
  });

  it("switches workspace without a trace of the previous one's data", async () => {
    await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Initrode',
      plan: 'pro',
      owner_email: owner,
    });
    // The session read again lists both workspaces: the header gets the switcher.
    await page.reload();
    await nav('API keys');
    await page.getByRole('row', { name: /Deploy bot/ }).waitFor();

    await page.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'Initrode' });
    await page.getByRole('heading', { name: 'Initrode' }).waitFor();
    await nav('API keys');
    await page.getByText('No keys yet.').waitFor();
    expect(await page.getByRole('row', { name: /Deploy bot/ }).count()).toBe(0);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Workspaces', exact: true })
      .waitFor();
    await screenshot(page, 'workspace-switched');
  });

  it('lists where the member is signed in on the Account page, and signs another browser out', async () => {
    // A second browser of the same member (by API, as a person on a phone would have it).
    const other = new ConsoleClient(base, { 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' });
    await other.session();
    const before = mail.countTo(owner);
    expect((await other.post('/console/api/sign-in/link', { email: owner })).status).toBe(202);
    await eventually(() =>
      mail.countTo(owner) > before ? Promise.resolve() : Promise.reject(new Error('no mail')),
    );
    const [, link] = await mail.latest(owner, LINK);
    const token = new URL(link!).hash.replace('#token=', '');
    expect((await other.post('/console/api/sign-in/token', { token })).status).toBe(200);
    await other.session();

    await nav('Account');
    const table = page.getByRole('table', { name: 'Your sessions' });
    await table.getByText('This session').waitFor();
    await table.getByText('Safari on iOS').waitFor();
    await screenshot(page, 'account-sessions');
    await table
      .getByRole('row', { name: /Safari on iOS/ })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await eventually(async () => {
      if ((await table.getByText('Safari on iOS').count()) > 0) throw new Error('still listed');
    });
    expect((await other.get('/console/api/keys')).status).toBe(401);
    await nav('Overview');
  });

  it('makes a calendar feed URL on the Account page, which a calendar app reads with no cookie', async () => {
    await nav('Account');
    const card = page.getByRole('region', { name: 'Calendar feed' });
    await card.getByText('You have no feed URL in this workspace.').waitFor();
    await card.getByRole('button', { name: 'Make a feed URL' }).click();
    const url = await card.getByLabel('Feed URL', { exact: true }).inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await card.getByText(/not fetched yet/).waitFor();
    await screenshot(page, 'account-calendar-feed');

    const fetched = await httpRequest(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(fetched.text).toContain('BEGIN:VCALENDAR');

    await card.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke your feed URL?' })
      .getByRole('button', { name: 'Revoke URL' })
      .click();
    await card.getByText(/Feed URL revoked/).waitFor();
    expect((await httpRequest(url)).status).toBe(404);
    await nav('Overview');
  });

  it('signs out to the sign-in page, and the screens then ask to sign in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Custodian' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.goto(`${base}/console/keys`);
    await page.getByRole('heading', { name: 'Sign in to Custodian' }).waitFor();
    expect(await page.getByText('Deploy bot').count()).toBe(0);
  });
});
