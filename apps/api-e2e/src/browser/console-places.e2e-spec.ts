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
 * Where assets are and what state they are in, in the console, in real headless Chromium
 * against the real stack (one stack for both walks):
 *
 * - Locations and categories (issue 34): a tree built with the dialogs (a building, a floor, a
 *   room), the assets of a place with or without those under it, a room moved, a place that is
 *   not empty refused with what it holds; a category added, renamed (the asset shows the new
 *   name) and refused deletion while used.
 * - An audit (issue 34): a stock-take of a room started from Audits, walked with the Scan
 *   screen (found, not expected, scanned twice), followed on the audit page's live counts, and
 *   completed with the missing asset marked lost (audit.started, audit.item_missing and
 *   audit.completed arrive).
 * - Maintenance (issue 33, item 5): a repair logged on the asset's page puts it in maintenance
 *   (maintenance.created arrives), resolving it with notes and the final cost puts it back
 *   (maintenance.resolved), and the Maintenance screen lists it under Resolved.
 */
jest.setTimeout(60_000);

describe('places and maintenance in the console, in a browser (e2e)', () => {
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
      events:
        'maintenance.created,maintenance.resolved,audit.started,audit.completed,audit.item_missing',
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

  const dialog = (title: string) => page.getByRole('dialog', { name: title });

  it('builds a tree of places with the dialogs, and shows the assets of a place', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Locations', exact: true })
      .click();
    await page.getByText('No locations yet.').waitFor();
    await page.getByRole('button', { name: 'Add location' }).click();
    const add = dialog('Add location');
    await add.getByLabel('Name').fill('Initech HQ');
    await add.getByLabel('Address').fill('4120 Freidrich Ln, Austin');
    await add.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('heading', { name: 'Initech HQ' }).waitFor();
    for (const [inside, name] of [
      ['Initech HQ', 'Floor 2'],
      ['Floor 2', 'Room 201'],
    ] as const) {
      await page.getByRole('button', { name: 'Add a place in it' }).click();
      const child = dialog(`Add a place in ${inside}`);
      await child.getByLabel('Name').fill(name);
      await child.getByRole('button', { name: 'Add location' }).click();
      await page.getByRole('heading', { name }).waitFor();
    }
    expect(await page.locator('.breadcrumb').textContent()).toBe(
      'Locations › Initech HQ › Floor 2',
    );
    const room = (
      await tenant.get<{ data: Array<{ id: string; name: string }> }>(
        '/locations?search=Room%20201',
      )
    ).body.data[0]!;
    // An asset filed in the room from its form: the place is picked from the tree, by id.
    await page.goto(`${base}/console/assets/new`);
    await page.getByLabel('Name', { exact: true }).fill('Red stapler');
    await page.getByLabel('Location', { exact: true }).selectOption(room.id);
    await page.getByRole('button', { name: 'Add asset' }).click();
    await page.getByRole('heading', { name: 'Red stapler' }).waitFor();
    const stapler = (await tenant.get<{ data: AssetDetail[] }>('/assets?page=1&search=stapler'))
      .body.data[0]!;
    expect((await tenant.get<AssetDetail>(`/assets/${stapler.id}`)).body.location).toEqual({
      id: room.id,
      name: 'Room 201',
    });
    await page.goto(`${base}/console/locations/${room.id}`);

    await page.locator('.breadcrumb').getByRole('link', { name: 'Initech HQ' }).click();
    const here = page.getByRole('region', { name: 'Assets here' });
    await here.getByRole('link', { name: 'Red stapler' }).waitFor();
    await here.getByLabel('Include the places in it').uncheck();
    await here.getByText('No assets here.').waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Locations', exact: true })
      .click();
    const rows = page.getByRole('row');
    await page
      .locator('tr', { hasText: 'Room 201' })
      .locator('td')
      .nth(1)
      .filter({ hasText: /^1$/ })
      .waitFor();
    expect(await rows.allTextContents()).toEqual([
      'PlacePlaces in itAssetsPeople',
      'Initech HQ · 4120 Freidrich Ln, Austin100',
      'Floor 2100',
      'Room 201010',
    ]);
    await screenshot(page, 'locations-tree');
  });

  it('moves a room to the top, and refuses to delete a place that is not empty', async () => {
    await page.getByRole('link', { name: 'Room 201' }).click();
    await page.getByRole('button', { name: 'Change or move' }).click();
    const change = dialog('Change Room 201');
    await change.getByLabel('Inside').selectOption({ label: 'Initech HQ' });
    await change.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.breadcrumb').getByText('Locations › Initech HQ').waitFor();
    await page.getByRole('link', { name: 'Initech HQ' }).click();
    await page.getByRole('region', { name: 'Places in it' }).getByText('Room 201').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = dialog('Delete Initech HQ?');
    await confirm.getByRole('button', { name: 'Delete location' }).click();
    await confirm.getByText(/holds 2 places; move them elsewhere first/).waitFor();
    await screenshot(page, 'locations-delete-refused');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('region', { name: 'History' })
      .getByText(/created location Floor 2 in Initech HQ/)
      .waitFor();
  });

  it('adds, renames and keeps a used category', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Categories', exact: true })
      .click();
    await page.getByLabel('New category').fill('Office supplies');
    await page.getByRole('button', { name: 'Add category' }).click();
    const row = page.getByRole('row', { name: /Office supplies/ });
    await row.waitFor();
    const supplies = (await tenant.get<{ data: Array<{ id: string }> }>('/categories')).body
      .data[0]!;
    const stapler = (await tenant.get<{ data: AssetDetail[] }>('/assets?page=1&search=stapler'))
      .body.data[0]!;
    await tenant.patch(`/assets/${stapler.id}`, { category_id: supplies.id });
    await page.reload();
    await row.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name').fill('Desk supplies');
    await page.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('row', { name: /Desk supplies/ });
    await renamed.waitFor();
    expect(await renamed.textContent()).toContain('Desk supplies1');
    await renamed.getByRole('button', { name: 'Delete' }).click();
    const confirm = dialog('Delete Desk supplies?');
    await confirm.getByRole('button', { name: 'Delete category' }).click();
    await confirm.getByText(/has 1 asset; give them another category first/).waitFor();
    await screenshot(page, 'categories-delete-refused');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`${base}/console/assets/${stapler.id}`);
    await page.getByText('Desk supplies').first().waitFor();
  });

  it('walks a stock-take of a room with the Scan screen and completes it', async () => {
    const store = (await tenant.post<{ id: string }>('/locations', { name: 'Supply closet' })).body;
    const tags = ['SC-1', 'SC-2', 'SC-3'];
    for (const [index, tag] of tags.entries()) {
      const made = await tenant.post<AssetDetail>('/assets', {
        name: ['Toner', 'Paper ream', 'Label maker'][index],
        asset_tag: tag,
        location_id: store.id,
      });
      expect(made.status).toBe(201);
    }
    const stapler = (await tenant.get<{ data: AssetDetail[] }>('/assets?page=1&search=stapler'))
      .body.data[0]!;
    const staplerTag = (await tenant.get<AssetDetail>(`/assets/${stapler.id}`)).body.asset_tag;

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audits', exact: true })
      .click();
    await page.getByText('No audits here.').waitFor();
    await page.getByRole('button', { name: 'Start audit' }).click();
    const start = dialog('Start audit');
    await start.getByLabel('Name').fill('Closet count');
    await start.getByLabel('Location', { exact: true }).selectOption(store.id);
    await start.getByRole('button', { name: 'Start audit' }).click();
    await page.getByRole('heading', { name: 'Closet count' }).waitFor();
    // Starting is a job: the page follows it until the audit is open with 3 expected.
    await page.locator('.page-head').getByText('Open', { exact: true }).waitFor();
    const counts = page.getByRole('region', { name: 'Counts' });
    await counts.locator('.stat', { hasText: 'Expected' }).getByText('3').waitFor();
    expect((await arrived('audit.started')).data).toMatchObject({ name: 'Closet count' });

    await page.getByRole('link', { name: 'Scan into this audit' }).click();
    // The audit is picked, by name, once the open audits have loaded.
    await page
      .getByLabel('Record into')
      .locator('option:checked', { hasText: 'Closet count' })
      .waitFor({ state: 'attached' });
    const field = page.getByLabel('Asset tag or serial number');
    const log = page.getByRole('region', { name: 'Scanned' });
    for (const [code, line] of [
      ['SC-1', 'found'],
      ['sc-2', 'found'],
      [staplerTag, 'not expected in this audit'],
      ['SC-1', 'already scanned in this audit'],
    ] as const) {
      await field.fill(code);
      await field.press('Enter');
      await log.locator('li').first().getByText(line, { exact: true }).waitFor();
      await log.locator('li').first().getByText(code, { exact: true }).waitFor();
    }
    await page.getByText('found 2 of 3, 1 unexpected, 0 misplaced').waitFor();
    await screenshot(page, 'audit-scan');

    await page.getByRole('link', { name: 'See the audit' }).click();
    await counts.locator('.stat', { hasText: 'Missing' }).getByText('1').waitFor();
    const lists = page.getByRole('region', { name: 'Assets' });
    await lists.getByRole('link', { name: 'Label maker' }).waitFor();
    await lists.getByRole('button', { name: /Unexpected/ }).click();
    await lists.getByRole('link', { name: 'Red stapler' }).waitFor();
    await screenshot(page, 'audit-page');

    await page.getByRole('button', { name: 'Complete' }).click();
    const complete = dialog('Complete Closet count?');
    await complete.getByLabel('Mark the missing assets lost').check();
    await complete.getByRole('button', { name: 'Complete audit' }).click();
    await page.locator('.page-head').getByText('Completed', { exact: true }).waitFor();
    const missing = await arrived('audit.item_missing');
    expect(missing.data).toMatchObject({ asset: { asset_tag: 'SC-3' } });
    expect((await arrived('audit.completed')).data).toMatchObject({
      status: 'completed',
      counts: { expected: 3, found: 2, missing: 1, unexpected: 1, misplaced: 0 },
    });
    const maker = (await tenant.get<{ data: AssetDetail[] }>('/assets?page=1&search=label%20maker'))
      .body.data[0]!;
    expect(maker.status).toBe('lost');
    await page
      .getByRole('region', { name: 'History' })
      .getByText(/completed/)
      .first()
      .waitFor();
    await screenshot(page, 'audit-completed');
  });

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
