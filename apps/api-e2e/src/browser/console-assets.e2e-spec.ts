import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type Asset,
  type EventEnvelope,
  type PersonDetail,
  type WorkspaceView,
} from '@custodian/contracts';
import { WebhookReceiver, eventually, freePort } from '@custodian/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { consoleMember } from '../support/console-sign-in';
import { Tenant, TestStack } from '../support/stack';
import { launchChromium, newBrowserContext, screenshot } from './chromium';

const PASSWORD = 'a long enough password';

/**
 * An asset manager's day in the console, in real headless Chromium against the real stack:
 * sign in, add an asset, scan its tag, check it out with a due date and in again, record its
 * condition, delete it and restore it from the bin, print its label, remove a member; a local
 * receiver sees each event. Only the
 * keyboard and the mouse, through labels and roles a person reads.
 */
jest.setTimeout(30_000);

describe('the register in the console, in a browser (e2e)', () => {
  const stack = new TestStack({
    env: { DELIVERY_INTERVAL_MS: '50', OVERDUE_TEST_CLOCK: 'on' },
  });
  const receiver = new WebhookReceiver();
  const manager = 'ops@globex.example';
  let base: string;
  let browser: Browser;
  let page: Page;
  let tenant: Tenant;
  let assetUrl = '';

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
      name: 'Globex',
      plan: 'pro',
      owner_email: manager,
    });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: manager,
      password: PASSWORD,
    });
    tenant = new Tenant(stack, workspace, await stack.createKey(workspace.id, 'write'));
    await stack.registerAdminCall(RegisterAdminPatterns.customFieldCreate, {
      workspace: workspace.id,
      key: 'cost_center',
      label: 'Cost center',
      type: 'select',
      options: ['IT', 'Operations'],
    });
    const person = await tenant.post<PersonDetail>('/people', {
      full_name: 'Dorothy Vaughan',
      email: 'dorothy@globex.example',
    });
    expect(person.status).toBe(201);
    await stack.workerAdminCall(WorkerAdminPatterns.webhookCreate, {
      workspace: workspace.id,
      url: receiver.url('/day'),
      events: '*',
    });
    const context = await newBrowserContext(browser, { viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  }, 60_000);

  afterEach(async () => {
    const name = expect.getState().currentTestName?.replace(/\W+/g, '-') ?? 'test';
    await screenshot(page, `last-${name}`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
    await receiver.stop();
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  /**
   * Opens Scan and waits, as a person glances at the screen, until its field has the focus:
   * keys typed while the nav link still has it would press the link instead.
   */
  async function openScan(): Promise<void> {
    await nav('Scan');
    await page.locator('#scan-code:focus').waitFor();
  }

  /** The events the receiver got, in order, as `event` keys with their data. */
  function received(): Array<EventEnvelope<Record<string, unknown>>> {
    return receiver
      .on('/day')
      .map((request) => JSON.parse(request.rawBody) as EventEnvelope<Record<string, unknown>>);
  }

  /** The first `event` delivered (of those whose data has `email`, when given). */
  async function arrives(
    event: string,
    email?: string,
  ): Promise<EventEnvelope<Record<string, unknown>>> {
    return eventually(
      () => {
        const found = received().find(
          (envelope) =>
            envelope.event === event && (email === undefined || envelope.data.email === email),
        );
        return found ? Promise.resolve(found) : Promise.reject(new Error(`no ${event} yet`));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  }

  it('signs in with a password and adds an asset', async () => {
    await page.goto(`${base}/console/sign-in`);
    await page.locator('#password-email').fill(manager);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await nav('Assets');
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
    await page.getByText('No assets yet.').waitFor();

    await page.getByRole('link', { name: 'Add asset' }).click();
    await page.getByLabel('Name').fill('ThinkPad X1 Carbon');
    await page.getByLabel('Asset tag').fill('GLX-0042');
    await page.getByLabel('Serial number').fill('PF-3XK9Q');
    await page.getByLabel('Brand').fill('Lenovo');
    await page.getByLabel('Category').fill('Laptops');
    await page.getByLabel('Condition').selectOption('good');
    await page.getByLabel('Cost center').selectOption('IT');
    await screenshot(page, 'asset-form');
    await page.getByRole('button', { name: 'Add asset' }).click();
    await page.getByRole('heading', { name: 'ThinkPad X1 Carbon' }).waitFor();
    assetUrl = page.url();
    expect((await arrives('asset.created')).data).toMatchObject({
      asset_tag: 'GLX-0042',
      condition: 'good',
      custom_fields: { cost_center: 'IT' },
    });
  });

  it('finds the asset by scanning its tag, as a scanner types it', async () => {
    await openScan();
    // The field has the focus: a scanner types the code and presses Enter.
    await page.keyboard.type('glx-0042');
    await page.keyboard.press('Enter');
    await page.getByText('Scanned glx-0042: the asset tag of this asset.').waitFor();
    expect(page.url()).toBe(assetUrl);
    await screenshot(page, 'asset-scanned');
    expect((await arrives('asset.scanned')).data).toMatchObject({
      code: 'glx-0042',
      matched: 'asset_tag',
    });

    await openScan();
    await page.keyboard.type('NOT-A-TAG');
    await page.keyboard.press('Enter');
    await page.getByText('No asset has the asset tag or serial number NOT-A-TAG').waitFor();
    expect(await page.locator('#scan-code').inputValue()).toBe('');
  });

  it('exports the list as shown (its search, its columns) as a CSV file', async () => {
    await nav('Assets');
    await page.getByLabel('Search').fill('thinkpad');
    await page.getByLabel('Search').press('Enter');
    await page.getByRole('link', { name: 'ThinkPad X1 Carbon' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^assets-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header?.startsWith('id,name,asset_tag,')).toBe(true);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('ThinkPad X1 Carbon,GLX-0042');
    await screenshot(page, 'assets-export');
  });

  it('checks the asset out with a due date, then in, and records its condition', async () => {
    await page.goto(assetUrl);
    await page.getByLabel('Find a person').fill('dorothy');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page
      .getByLabel('Check out to')
      .selectOption({ label: 'Dorothy Vaughan (dorothy@globex.example)' });
    await page.getByLabel('Due back', { exact: true }).fill('2031-06-30T17:00');
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    await page.getByText(/^Checked out to /).waitFor();
    await page.getByText('Dorothy Vaughan').first().waitFor();
    await screenshot(page, 'asset-checked-out');
    const out = await arrives('assignment.checked_out');
    const custody = (out.data.asset as Asset).custody;
    expect(custody?.due_at).toBe(new Date(2031, 5, 30, 17, 0).toISOString());

    await page.getByRole('button', { name: 'Check in' }).click();
    await page.getByText('In stock: nobody holds it.').waitFor();
    await arrives('assignment.checked_in');

    await page.getByLabel('Condition').selectOption('poor');
    await page.getByRole('button', { name: 'Record condition' }).click();
    await eventually(async () => {
      const text = await page.getByRole('button', { name: 'Record condition' }).isDisabled();
      if (!text) throw new Error('not saved yet');
    });
    expect((await arrives('asset.condition_changed')).data).toMatchObject({
      from: 'good',
      to: 'poor',
    });
  });

  it('deletes the asset to the bin and restores it', async () => {
    await page.goto(assetUrl);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move to the bin' }).click();
    await page.getByRole('heading', { name: 'Bin' }).waitFor();
    await page.getByText('“ThinkPad X1 Carbon” is in the bin.').waitFor();
    await screenshot(page, 'asset-bin');
    const id = assetUrl.split('/').pop()!;
    expect((await tenant.get(`/assets/${id}`)).status).toBe(404);
    await arrives('asset.deleted');

    await page.getByRole('button', { name: /Restore/ }).click();
    await page.getByText('“ThinkPad X1 Carbon” is restored.').waitFor();
    expect(page.url()).toBe(assetUrl);
    expect((await tenant.get(`/assets/${id}`)).status).toBe(200);
    await arrives('asset.restored');

    await nav('Assets');
    await page.getByRole('link', { name: 'ThinkPad X1 Carbon' }).waitFor();
    // The columns a person chooses stay chosen in this browser.
    await page.getByText('Columns', { exact: true }).click();
    await page.getByLabel('Brand', { exact: true }).check();
    await page.getByLabel('Updated', { exact: true }).uncheck();
    await page.reload();
    const row = page.getByRole('row', { name: /ThinkPad X1 Carbon/ });
    await row.getByRole('cell', { name: 'Lenovo' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Updated' }).count()).toBe(0);
    await page.getByLabel('Order').selectOption({ label: 'Name, Z to A' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/sort=-name/);
    await row.waitFor();
    await screenshot(page, 'assets');
  });

  it('refuses an edit made to a version someone saved over, showing what they changed (two pages)', async () => {
    // A second admin's page: a session of its own, the same asset's form open on both.
    const context = await newBrowserContext(browser, { viewport: { width: 1280, height: 900 } });
    const other = await context.newPage();
    try {
      await other.goto(`${base}/console/sign-in`);
      await other.locator('#password-email').fill(manager);
      await other.locator('#password').fill(PASSWORD);
      await other.getByRole('button', { name: 'Sign in', exact: true }).click();
      await other.getByRole('navigation', { name: 'Main' }).waitFor();
      for (const each of [page, other]) {
        await each.goto(`${assetUrl}/edit`);
        await each.getByRole('heading', { name: 'Edit asset' }).waitFor();
        expect(await each.getByLabel('Brand').inputValue()).toBe('Lenovo');
      }

      // The first saves a new brand.
      await page.getByLabel('Brand').fill('Lenovo Group');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: 'ThinkPad X1 Carbon' }).waitFor();

      // The second, still on the version before, changes the model: refused, with what changed.
      await other.getByLabel('Model').fill('Gen 12');
      await other.getByRole('button', { name: 'Save changes' }).click();
      const conflict = other
        .getByRole('alert')
        .filter({ hasText: 'Someone else saved this asset' });
      await conflict.waitFor().catch(async (error: unknown) => {
        await screenshot(other, 'asset-edit-conflict-failed');
        throw error;
      });
      const brand = conflict.getByRole('row', { name: /^Brand/ });
      expect(await brand.getByRole('cell').allInnerTexts()).toEqual(['Lenovo', 'Lenovo Group']);
      await screenshot(other, 'asset-edit-conflict');
      const id = assetUrl.split('/').pop() ?? '';
      const kept = await tenant.get<Asset>(`/assets/${id}`);
      expect(kept.body).toMatchObject({ brand: 'Lenovo Group', model: null });

      // Starting again from their version keeps their brand, and the model goes in on top.
      await conflict.getByRole('button', { name: 'Start again from their version' }).click();
      expect(await other.getByLabel('Brand').inputValue()).toBe('Lenovo Group');
      await other.getByLabel('Model').fill('Gen 12');
      await other.getByRole('button', { name: 'Save changes' }).click();
      await other.getByRole('heading', { name: 'ThinkPad X1 Carbon' }).waitFor();
      expect((await tenant.get<Asset>(`/assets/${id}`)).body).toMatchObject({
        brand: 'Lenovo Group',
        model: 'Gen 12',
      });
    } finally {
      await context.close();
    }
  });

  it('prints a label whose QR code opens the asset', async () => {
    await page.goto(assetUrl);
    await page.getByRole('link', { name: 'Label' }).click();
    const code = page.getByRole('img', {
      name: 'QR code opening ThinkPad X1 Carbon in the console',
    });
    await code.waitFor();
    // A version-3 code or larger: the asset's whole console address is in it.
    const modules = await code.locator('path').getAttribute('d');
    expect(modules?.split('M').length).toBeGreaterThan(300);
    await page.getByText('GLX-0042').waitFor();
    await screenshot(page, 'asset-label');
  });

  it('invites a member, and removes another, whose session ends at once', async () => {
    const leaving = await consoleMember(tenant, 'member', 'leaving@globex.example');
    expect((await leaving.get('/console/api/assets')).status).toBe(200);
    await nav('Members');
    await page.getByLabel('E-mail').fill('katherine@globex.example');
    await page.getByLabel(/^Manager/).check();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('katherine@globex.example is invited as manager').waitFor();
    await page
      .getByRole('row', { name: /katherine@globex\.example/ })
      .getByText('Invited')
      .waitFor();
    expect((await arrives('member.invited', 'katherine@globex.example')).data).toMatchObject({
      email: 'katherine@globex.example',
      role: 'manager',
    });

    const row = page.getByRole('row', { name: /leaving@globex\.example/ });
    await row.getByRole('button', { name: /Remove/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await page.getByText('signed out of this workspace, and the seat is free').waitFor();
    await screenshot(page, 'members');
    expect(await row.count()).toBe(0);
    expect((await leaving.get('/console/api/assets')).status).toBe(403);
    expect((await arrives('member.removed')).data).toMatchObject({
      email: 'leaving@globex.example',
      status: 'active',
    });
  });

  it("sees the overdue event arrive when the scheduler's clock passes the due date", async () => {
    await page.goto(assetUrl);
    await page.getByLabel('Find a person').fill('dorothy');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page
      .getByLabel('Check out to')
      .selectOption({ label: 'Dorothy Vaughan (dorothy@globex.example)' });
    await page.getByLabel('Due back', { exact: true }).fill('2031-06-30T17:00');
    await page.getByRole('button', { name: 'Check out', exact: true }).click();
    // The Check in button, not the text: the History below already says "checked out to".
    await page.getByRole('button', { name: 'Check in' }).waitFor();
    // The test clock: the register's sweep runs as if it were the day after the due date.
    const swept = await stack.registerAdminCall<{ fired: number }>(
      RegisterAdminPatterns.overdueSweep,
      { at: new Date(2031, 6, 1, 9, 0).toISOString() },
    );
    expect(swept.fired).toBe(1);
    const overdue = await arrives('assignment.overdue');
    expect(overdue.data).toMatchObject({
      person: { name: 'Dorothy Vaughan' },
      due_at: new Date(2031, 5, 30, 17, 0).toISOString(),
    });
    await page.reload();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('marked overdue, held by').waitFor();
    await screenshot(page, 'asset-history');
  });

  it('changes a role and sends an invitation again', async () => {
    await consoleMember(tenant, 'member', 'pat@globex.example');
    await nav('Members');
    await page.getByLabel('Role of pat@globex.example').selectOption('manager');
    await page.getByText('pat@globex.example is now manager.').waitFor();
    const row = page.getByRole('row', { name: /katherine@globex\.example/ });
    await row.getByRole('button', { name: /Resend/ }).click();
    await page
      .getByText('A new invitation link is on its way to katherine@globex.example')
      .waitFor();
    await screenshot(page, 'members-roles');
  });

  it('offboards a person, seeing what they still hold, and finds it in their history', async () => {
    await nav('People');
    await page.getByRole('link', { name: 'Dorothy Vaughan' }).click();
    await page.getByRole('button', { name: 'Offboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Offboard Dorothy Vaughan?' });
    await dialog.getByText('They still hold 1 asset').waitFor();
    await dialog.getByText('ThinkPad X1 Carbon').waitFor();
    await dialog.getByRole('button', { name: 'Offboard' }).click();
    await page.getByText('Dorothy Vaughan is offboarded.').waitFor();
    expect((await arrives('employee.offboarded')).data).toMatchObject({ status: 'inactive' });
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('offboarded person Dorothy Vaughan').waitFor();
    await history
      .getByText('checked out asset ThinkPad X1 Carbon to Dorothy Vaughan')
      .first()
      .waitFor();
    await screenshot(page, 'person-history');
  });

  it('reads the day back in the activity feed, and filters it', async () => {
    await nav('Activity');
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    const feed = page.locator('.activity');
    for (const line of [
      /ops@globex\.example offboarded person Dorothy Vaughan/,
      /ops@globex\.example sent a new invitation to member katherine@globex\.example/,
      /ops@globex\.example changed the role of member pat@globex\.example/,
      /System marked overdue asset ThinkPad X1 Carbon, held by Dorothy Vaughan/,
      /ops@globex\.example removed member leaving@globex\.example/,
      /ops@globex\.example restored asset ThinkPad X1 Carbon/,
      /ops@globex\.example deleted asset ThinkPad X1 Carbon/,
      /ops@globex\.example scanned asset ThinkPad X1 Carbon/,
      /ops@globex\.example created asset ThinkPad X1 Carbon/,
    ]) {
      await feed.getByText(line).first().waitFor();
    }
    await feed.getByText('role: member → manager').waitFor();
    await screenshot(page, 'activity');

    await page.getByLabel('Source').selectOption('api');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/source=api/);
    // The unfiltered feed stays on screen until the filtered one arrives, and the API key's line
    // is in both: wait for the members' lines to go before reading what is left.
    await feed
      .getByText(/ops@globex\.example/)
      .first()
      .waitFor({ state: 'detached' });
    await feed.getByText(/API key .* created person Dorothy Vaughan/).waitFor();
    expect(await feed.getByText(/ops@globex\.example/).count()).toBe(0);
  });

  it('selects rows of the asset list, changes their status at once, and moves them to the bin', async () => {
    for (const name of ['Dell Latitude 7440', 'Dell Latitude 7450', 'Dell Latitude 7460']) {
      expect((await tenant.post<Asset>('/assets', { name })).status).toBe(201);
    }
    await nav('Assets');
    const table = page.getByRole('table', { name: 'Assets' });
    await table.getByRole('link', { name: 'Dell Latitude 7460' }).waitFor();
    await table.getByRole('checkbox', { name: 'Select Dell Latitude 7440' }).check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByText('1 selected').waitFor();
    await table.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await bar.getByText('4 selected').waitFor();
    await screenshot(page, 'assets-bulk-selected');

    await bar.getByRole('button', { name: 'Change status' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change status: 4 assets' });
    await dialog.getByLabel('New status').selectOption('retired');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const result = page.getByRole('region', { name: 'Result of the bulk action' });
    await result.getByText('4 assets updated.').waitFor();
    await table.getByRole('row', { name: /Dell Latitude 7450.*Retired/ }).waitFor();
    await screenshot(page, 'assets-bulk-status');
    await eventually(
      () => {
        const retired = received().filter(
          (envelope) =>
            envelope.event === 'asset.updated' &&
            String(envelope.data.name).startsWith('Dell Latitude') &&
            envelope.data.status === 'retired',
        );
        return retired.length === 3
          ? Promise.resolve()
          : Promise.reject(new Error(`${retired.length} of 3 asset.updated`));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );

    // The ThinkPad is still out to Dorothy: the bin refuses it, with the reason, by name.
    await table.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await bar.getByRole('button', { name: 'Move to bin' }).click();
    const confirm = page.getByRole('dialog', { name: 'Move to bin: 4 assets' });
    await confirm.getByRole('button', { name: 'Move to bin' }).click();
    await result.getByText('3 assets moved to the bin, 1 refused.').waitFor();
    await result
      .getByText(/ThinkPad X1 Carbon: Asset ast_\w+ is checked out to Dorothy Vaughan; check it in/)
      .waitFor();
    await table.getByRole('link', { name: 'Dell Latitude 7440' }).waitFor({ state: 'detached' });
    await screenshot(page, 'assets-bulk-bin');

    // What is left (the ThinkPad) comes back in, after a confirm.
    await table.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await bar.getByRole('button', { name: 'Check in' }).click();
    await page
      .getByRole('dialog', { name: 'Check in: 1 asset' })
      .getByRole('button', { name: 'Check in' })
      .click();
    await result.getByText('1 asset checked in.').waitFor();
    await table.getByRole('row', { name: /ThinkPad X1 Carbon.*In stock/ }).waitFor();
  });
});
