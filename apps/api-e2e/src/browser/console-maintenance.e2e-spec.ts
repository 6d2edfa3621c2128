import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type AssetDetail,
  type EventEnvelope,
  type Maintenance,
  type WorkspaceView,
} from '@custodian/contracts';
import { WebhookReceiver, eventually, freePort } from '@custodian/testing';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Tenant, TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const PASSWORD = 'a long enough password';

/**
 * Maintenance in the console (issue 33, item 5), in real headless Chromium against the real
 * stack: a repair logged on the asset's page puts it in maintenance (maintenance.created
 * arrives), resolving it with notes and the final cost puts it back (maintenance.resolved),
 * and the Maintenance screen lists it under Resolved, linked to the asset.
 */
jest.setTimeout(60_000);

describe('maintenance in the console, in a browser (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const receiver = new WebhookReceiver();
  const owner = 'it@initech.example';
  let base: string;
  let browser: Browser;
  let page: Page;
  let tenant: Tenant;
  let asset: AssetDetail;

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
      name: 'Initech',
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
      url: receiver.url('/maintenance'),
      events: 'maintenance.created,maintenance.resolved',
    });
    asset = (await tenant.post<AssetDetail>('/assets', { name: 'Printer PC LOAD LETTER' })).body;
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

  const arrived = (event: string) =>
    eventually(
      () => {
        const found = receiver
          .on('/maintenance')
          .filter((request) => request.headers['x-custodian-event'] === event)
          .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Maintenance>);
        return found.length > 0 ? Promise.resolve(found[0]!) : Promise.reject(new Error(event));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );

  it('logs a repair that puts the asset in maintenance, and resolves it back', async () => {
    await page.goto(`${base}/console/assets/${asset.id}`);
    const section = page.getByRole('region', { name: 'Maintenance' });
    await section.getByText('No maintenance logged.').waitFor();
    const form = page.getByRole('form', { name: 'Log maintenance' });
    await form.getByLabel('Title').fill('Paper feed jams');
    await form.getByLabel('Type').selectOption({ label: 'Repair' });
    await form.getByLabel('Cost').fill('120');
    await form.getByLabel(/Put the asset in maintenance/).check();
    await form.getByRole('button', { name: 'Log maintenance' }).click();
    await section.getByRole('row', { name: /Paper feed jams/ }).waitFor();
    await page.locator('.page-head').getByText('In maintenance').waitFor();
    const created = await arrived('maintenance.created');
    expect(created.data).toMatchObject({
      title: 'Paper feed jams',
      type: 'repair',
      cost: '120.00',
      status: 'open',
      asset_status_before: 'active',
      asset: { id: asset.id },
    });
    await screenshot(page, 'maintenance-asset-open');

    await section.getByRole('button', { name: 'Resolve Paper feed jams' }).click();
    const resolve = page.getByRole('form', { name: 'Resolve Paper feed jams' });
    await resolve.getByLabel('What was done').fill('Rollers replaced');
    await resolve.getByLabel('Final cost').fill('135.50');
    await resolve.getByRole('button', { name: 'Resolve' }).click();
    await section.getByText('Resolution: Rollers replaced').waitFor();
    await page.locator('.page-head').getByText('Active', { exact: true }).waitFor();
    const resolved = await arrived('maintenance.resolved');
    expect(resolved.data).toMatchObject({
      status: 'resolved',
      cost: '135.50',
      resolution_notes: 'Rollers replaced',
    });
    expect((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body.status).toBe('active');
    // The asset's history names the record, on the asset.
    await page
      .getByRole('region', { name: 'History' })
      .getByText(`resolved maintenance record Paper feed jams on ${asset.name}`)
      .waitFor();
  });

  it('lists it on the Maintenance screen under Resolved, linked to the asset', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Maintenance', exact: true })
      .click();
    await page.getByText('Nothing is in maintenance.').waitFor();
    await page.getByRole('link', { name: 'Resolved', exact: true }).click();
    const row = page.getByRole('row', { name: /Paper feed jams/ });
    await row.waitFor();
    await screenshot(page, 'maintenance-list');
    await row.getByRole('link', { name: asset.name }).click();
    await page.getByRole('heading', { name: asset.name }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/assets/${asset.id}`);
  });
});
