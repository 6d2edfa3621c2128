import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  type CreatedKeyView,
  type InvitationView,
  type MemberView,
  type RenewedInvitationView,
  type WorkspaceView,
} from '@custodian/contracts';
import { freePort } from '@custodian/testing';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Tenant, TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const PASSWORD = 'a long enough password';

/**
 * Plan and usage in real headless Chromium: a pro workspace with a lowered asset limit, filled
 * through the API with a named key; the owner reads the limits, what is used, the notice of
 * the limit reached and the key's requests; a member sees the same figures without the keys.
 */
jest.setTimeout(30_000);

describe('plan and usage in the console, in a browser (e2e)', () => {
  const stack = new TestStack();
  const owner = 'owner@initech.example';
  const member = 'milton@initech.example';
  let base: string;
  let browser: Browser;
  let tenant: Tenant;

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
      name: 'Initech',
      plan: 'pro',
      owner_email: owner,
    });
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: workspace.id,
      assets: '3',
    });
    const key = await stack.adminCall<CreatedKeyView>(GatewayAdminPatterns.keyCreate, {
      workspace: workspace.id,
      scope: 'write',
      name: 'Inventory sync',
    });
    tenant = new Tenant(stack, workspace, key);
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: owner,
      password: PASSWORD,
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  /** A member who accepted an invitation (made through the API: one request of the key). */
  async function addMember(): Promise<void> {
    const invited = await tenant.post<MemberView>('/members', { email: member, role: 'member' });
    expect(invited.status).toBe(201);
    const open = await stack.registerAdminCall<InvitationView[]>(
      RegisterAdminPatterns.invitationList,
      { workspace: tenant.workspace.id },
    );
    const renewed = await stack.registerAdminCall<RenewedInvitationView>(
      RegisterAdminPatterns.invitationRenew,
      { id: open.find((each) => each.email === member)!.id },
    );
    await stack.registerAdminCall(RegisterAdminPatterns.invitationAccept, {
      token: renewed.token,
    });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: member,
      password: PASSWORD,
    });
  }

  /** Waits, if needed, so that the requests and the page that counts them share a minute. */
  async function freshWindow(seconds: number): Promise<void> {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  }

  async function signedIn(email: string): Promise<Page> {
    const context = await newBrowserContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/console/sign-in`);
    await page.locator('#password-email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Initech' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Plan & usage', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Plan & usage' }).waitFor();
    return page;
  }

  /** The figures of one meter as shown: `3 of 3`, `2 · unlimited`. */
  async function meterText(page: Page, label: string): Promise<string> {
    const card = page.locator('.meter', { has: page.getByText(label, { exact: true }) });
    return (await card.locator('.meter-figures').innerText()).replace(/\s+/g, ' ').trim();
  }

  it('shows the owner the limits, what is used, the limit reached and each key', async () => {
    await freshWindow(25);
    await addMember();
    for (const name of ['Stapler', 'Printer', 'Desk']) {
      expect((await tenant.post('/assets', { name })).status).toBe(201);
    }
    const person = await tenant.post('/people', {
      full_name: 'Peter Gibbons',
      email: 'peter@initech.example',
    });
    expect(person.status).toBe(201);
    expect((await tenant.get('/ping')).status).toBe(200);

    const page = await signedIn(owner);
    await page.getByText('Asset limit of 3 reached on the pro plan').waitFor();
    expect(await page.getByRole('alert').allInnerTexts()).toEqual([
      'Limit reached. Asset limit of 3 reached on the pro plan.',
    ]);
    expect(await meterText(page, 'Assets')).toBe('3 of 3');
    expect(await meterText(page, 'People')).toBe('1 of 1,000');
    expect(await meterText(page, 'Member seats')).toBe('2 of 25');
    // The key's month: the invitation, three assets and a person; /ping only in the minute.
    expect(await meterText(page, 'Requests this month, busiest key')).toBe('5 of 100,000');
    expect(await meterText(page, 'Requests this minute, busiest key')).toBe('6 of 120');
    const assets = page.getByRole('meter', { name: 'Assets' });
    expect(await assets.getAttribute('value')).toBe('3');
    expect(await assets.getAttribute('max')).toBe('3');

    const row = page.getByRole('row', { name: /Inventory sync/ });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells).toEqual(['Inventory sync', `${tenant.key.prefix}…`, 'Active', '5', '<1%', '6']);
    await page.getByText('5 requests from all keys').waitFor();
    await screenshot(page, 'usage-owner');
  });

  it('shows a member the same figures, without the keys', async () => {
    const page = await signedIn(member);
    expect(await meterText(page, 'Assets')).toBe('3 of 3');
    expect(await meterText(page, 'Requests this month, busiest key')).toBe('5 of 100,000');
    await page.getByText('Asset limit of 3 reached on the pro plan').waitFor();
    await page.getByText('Requests per key are shown to the roles that may see API keys').waitFor();
    expect(await page.getByRole('row', { name: /Inventory sync/ }).count()).toBe(0);
    await screenshot(page, 'usage-member');
  });
});
