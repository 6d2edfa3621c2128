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
 * People in the console, in real headless Chromium against the real stack: add a person, see
 * what they hold, offboard them through the dialog that lists it first, find them in the list
 * by status; a local receiver sees the events. A member sees people but none of the buttons
 * that change them. The list exports as shown, and a CSV file of people imports through its dry
 * run (the rows refused, and why), then in the background with a progress bar. Only the
 * keyboard and the mouse, through labels and roles a person reads.
 */
jest.setTimeout(30_000);

describe('people in the console, in a browser (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const receiver = new WebhookReceiver();
  const manager = 'ops@initech.example';
  let base: string;
  let browser: Browser;
  let page: Page;
  let tenant: Tenant;
  let personUrl = '';

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
      owner_email: manager,
    });
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: manager,
      password: PASSWORD,
    });
    tenant = new Tenant(stack, workspace, await stack.createKey(workspace.id, 'write'));
    await stack.workerAdminCall(WorkerAdminPatterns.webhookCreate, {
      workspace: workspace.id,
      url: receiver.url('/people'),
      events: '*',
    });
    page = await newPage();
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

  async function newPage(): Promise<Page> {
    const context = await newBrowserContext(browser, { viewport: { width: 1280, height: 800 } });
    return context.newPage();
  }

  async function signIn(email: string): Promise<void> {
    await page.goto(`${base}/console/sign-in`);
    await page.locator('#password-email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  /** The first `event` delivered about the person with this id. */
  async function arrives(event: string, id: string): Promise<EventEnvelope<PersonDetail>> {
    return eventually(
      () => {
        const found = receiver
          .on('/people')
          .map((request) => JSON.parse(request.rawBody) as EventEnvelope<PersonDetail>)
          .find((envelope) => envelope.event === event && envelope.data.id === id);
        return found ? Promise.resolve(found) : Promise.reject(new Error(`no ${event} yet`));
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  }

  const personId = () => personUrl.split('/').pop()!;

  it('signs in and adds a person with every field of the form', async () => {
    await signIn(manager);
    await nav('People');
    await page.getByRole('heading', { name: 'People', exact: true }).waitFor();
    await page.getByText('No people yet.').waitFor();

    await page.getByRole('link', { name: 'Add person' }).click();
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@initech.example');
    await page.getByLabel('Employee number').fill('N-1906');
    await page.getByLabel('Department').fill('Programming');
    await page.getByLabel('Location', { exact: true }).selectOption({ label: 'New place…' });
    await page.getByLabel('New place name').fill('Arlington');
    await screenshot(page, 'person-form');
    await page.getByRole('button', { name: 'Add person' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page.getByText('Grace Hopper is added.').waitFor();
    personUrl = page.url();
    expect(personUrl).toMatch(/\/console\/people\/per_\w+$/);
    const details = page.locator('dl.details');
    for (const value of ['grace@initech.example', 'N-1906', 'Programming', 'Arlington']) {
      await details.getByText(value, { exact: true }).waitFor();
    }
    expect((await arrives('employee.created', personId())).data).toMatchObject({
      full_name: 'Grace Hopper',
      employee_number: 'N-1906',
      department: { name: 'Programming' },
      location: { name: 'Arlington' },
      status: 'active',
    });
  });

  it('edits the person: what changed is saved, an emptied field cleared', async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit person' }).waitFor();
    expect(await page.getByLabel('Department').inputValue()).toBe('Programming');
    await page.getByLabel('Department').fill('Compilers');
    await page.getByLabel('Location', { exact: true }).selectOption({ label: 'None' });
    await screenshot(page, 'person-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    await page.locator('dl.details').getByText('Compilers', { exact: true }).waitFor();
    const viaApi = await tenant.get<PersonDetail>(`/people/${personId()}`);
    expect(viaApi.body).toMatchObject({
      email: 'grace@initech.example',
      department: { name: 'Compilers' },
      location: null,
      status: 'active',
    });
    // Said once: reloading the page does not say it again.
    await page.reload();
    await page.locator('dl.details').getByText('Compilers', { exact: true }).waitFor();
    expect(await page.getByText('Changes saved.').count()).toBe(0);
  });

  it('shows what the person holds, each linking to its asset', async () => {
    const laptop = await tenant.post<Asset>('/assets', {
      name: 'UNIVAC terminal',
      serial_number: 'UV-1951',
      category: 'Terminals',
      assigned_to_id: personId(),
    });
    expect(laptop.status).toBe(201);
    await page.goto(personUrl);
    const holdings = page.getByRole('region', { name: 'Holdings' });
    const link = holdings.getByRole('link', { name: 'UNIVAC terminal' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/console/assets/${laptop.body.id}`);
    await holdings.getByText('Terminals').waitFor();
    await screenshot(page, 'person-holdings');

    await link.click();
    await page.getByRole('heading', { name: 'UNIVAC terminal' }).waitFor();
    await page.getByText(/^Checked out to /).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
  });

  it('offboards through a dialog that lists what they still hold', async () => {
    await page.goto(personUrl);
    await page.getByRole('button', { name: 'Offboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Offboard Grace Hopper?' });
    await dialog.getByText('They still hold 1 asset').waitFor();
    const held = dialog.getByRole('list', { name: 'Still held' }).getByRole('listitem');
    expect(await held.allInnerTexts()).toEqual(['UNIVAC terminal UV-1951']);
    await screenshot(page, 'person-offboard-dialog');

    await dialog.getByRole('button', { name: 'Offboard' }).click();
    await page
      .getByText(
        'Grace Hopper is offboarded. They still hold 1 asset: check each in from its page.',
      )
      .waitFor();
    await page.locator('.page-head .badge', { hasText: 'Offboarded' }).waitFor();
    expect(await page.getByRole('button', { name: 'Offboard' }).count()).toBe(0);
    // Offboarding checks nothing in: the holding is still listed.
    await page.getByRole('region', { name: 'Holdings' }).getByText('UNIVAC terminal').waitFor();
    await screenshot(page, 'person-offboarded');

    const viaApi = await tenant.get<PersonDetail>(`/people/${personId()}`);
    expect([viaApi.body.status, viaApi.body.holdings_count]).toEqual(['inactive', 1]);
    expect((await arrives('employee.offboarded', personId())).data).toEqual(viaApi.body);
  });

  it('finds the offboarded person by status and search, the view kept in the URL', async () => {
    await tenant.post('/people', { full_name: 'Ada Lovelace', email: 'ada@initech.example' });
    await nav('People');
    const rows = page.getByRole('table', { name: 'People' }).getByRole('row');
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    expect(await rows.count()).toBe(3);

    await page.getByLabel('Status').selectOption({ label: 'Offboarded' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\/console\/people\?status=inactive$/);
    // The new page has loaded once its count shows.
    await page.getByText('1–1 of 1 person').waitFor();
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringMatching(/^name\tstatus/i),
      expect.stringMatching(/^Grace Hopper\tOffboarded\tgrace@initech\.example\tN-1906/),
    ]);
    await screenshot(page, 'people');

    await page.getByLabel('Status').selectOption({ label: 'Any' });
    await page.getByLabel('Search').fill('LOVELACE');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\/console\/people\?search=LOVELACE$/);
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  });

  it('shows a member people and holdings, but no button that changes them', async () => {
    await consoleMember(tenant, 'member', 'viewer@initech.example');
    await stack.registerAdminCall(RegisterAdminPatterns.passwordSet, {
      email: 'viewer@initech.example',
      password: PASSWORD,
    });
    await page.context().close();
    page = await newPage();
    await signIn('viewer@initech.example');
    await nav('People');
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await page.getByRole('link', { name: 'Add person' }).count()).toBe(0);
    // A member exports what they see, but imports nothing.
    await page.getByRole('link', { name: 'Export CSV' }).waitFor();
    expect(await page.getByRole('link', { name: 'Import CSV' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page.getByRole('region', { name: 'Holdings' }).getByText('UNIVAC terminal').waitFor();
    for (const name of ['Edit', 'Offboard']) {
      expect({ name, shown: await page.getByRole('button', { name }).count() }).toEqual({
        name,
        shown: 0,
      });
    }
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await screenshot(page, 'person-as-member');

    await page.goto(`${personUrl}/edit`);
    await page.getByText('Your role (member) cannot change people.').waitFor();
  });

  it('exports the people list as shown (its search) as a CSV file', async () => {
    // The manager again, after the member.
    await page.context().close();
    page = await newPage();
    await signIn(manager);
    await page.goto(`${base}/console/people?search=LOVELACE`);
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^people-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header?.startsWith('id,full_name,email,employee_number,')).toBe(true);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^per_\w+,Ada Lovelace,ada@initech\.example,/);
  });

  it('imports people from a CSV file: the dry run with its reasons, then the import', async () => {
    // 600 new people besides the crafted rows: enough that importing takes a moment, so the
    // progress bar shows on the way.
    const crowd = Array.from(
      { length: 600 },
      (_, index) => `Crew ${index + 1},crew${index + 1}@initech.example,C-${index + 1},Ground crew`,
    );
    const csv = [
      'full_name,email,employee_number,department',
      'Katherine Johnson,katherine@initech.example,N-1918,Flight Research',
      'Ada Lovelace,ada@initech.example,,Analytical Engines',
      'Mary Jackson,not-an-e-mail,N-1921,Engineering',
      'Katherine G. Johnson,katherine@initech.example,,',
      ...crowd,
    ].join('\r\n');
    await nav('People');
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.getByRole('heading', { name: 'Imports', exact: true }).waitFor();
    await page.getByText('Nothing imported yet.').waitFor();
    // Opened from the people list, the form is set to people.
    expect(await page.getByRole('radio', { name: 'People' }).isChecked()).toBe(true);
    await page.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'new-hires.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });
    expect(await page.getByLabel('Show me the dry run before importing').isChecked()).toBe(true);
    await screenshot(page, 'import-upload');
    await page.getByRole('button', { name: 'Upload' }).click();

    await page.getByRole('heading', { name: 'new-hires.csv' }).waitFor();
    await page.locator('.page-head .badge', { hasText: 'Ready to import' }).waitFor();
    const stat = (section: string, label: string) =>
      page
        .getByRole('region', { name: section, exact: true })
        .locator('.stat', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
        .locator('dd');
    expect(await stat('Dry run', 'To create').innerText()).toBe('601');
    expect(await stat('Dry run', 'To update').innerText()).toBe('1');
    expect(await stat('Dry run', 'Refused').innerText()).toBe('2');
    // Nothing is written by the dry run.
    const katherine = () => tenant.get<PersonDetail[]>('/people?search=katherine');
    expect((await katherine()).body).toEqual([]);

    const rows = page.getByRole('region', { name: 'Rows', exact: true });
    await rows.getByRole('button', { name: 'Refused (2)' }).click();
    const table = rows.getByRole('table', { name: 'Rows of the file' });
    await table.getByText('Mary Jackson').waitFor();
    const refused = await table.getByRole('row').allInnerTexts();
    expect(refused).toHaveLength(3);
    expect(refused[1]).toMatch(/^3\tMary Jackson\tnot-an-e-mail\tN-1921\tRefuse\t.*email/);
    expect(refused[2]).toMatch(
      /^4\tKatherine G\. Johnson\tkatherine@initech\.example\t—\tRefuse\t.*row 1/,
    );
    await screenshot(page, 'import-dry-run');
    await rows.getByRole('button', { name: 'To update (1)' }).click();
    await table.getByText('Ada Lovelace').waitFor();

    await page.getByRole('button', { name: 'Start import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import new-hires.csv?' });
    await dialog
      .getByText('Importing 602 rows: 601 to create, 1 to update. 2 rows are refused and skipped.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Start import' }).click();
    // The bar follows the job as the page reads it again.
    await page.getByRole('progressbar', { name: 'Rows imported' }).waitFor();
    await screenshot(page, 'import-progress');
    await page.locator('.page-head .badge', { hasText: 'Completed' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('progressbar').count()).toBe(0);
    expect(await stat('Results', 'Created').innerText()).toBe('601');
    expect(await stat('Results', 'Updated').innerText()).toBe('1');
    expect(await stat('Results', 'Refused').innerText()).toBe('2');
    await screenshot(page, 'import-completed');

    const [found] = (await katherine()).body;
    const created = (await tenant.get<PersonDetail>(`/people/${found!.id}`)).body;
    expect(created).toMatchObject({
      full_name: 'Katherine Johnson',
      employee_number: 'N-1918',
      department: { name: 'Flight Research' },
    });
    const [lovelace] = (await tenant.get<PersonDetail[]>('/people?search=lovelace')).body;
    const ada = await tenant.get<PersonDetail>(`/people/${lovelace!.id}`);
    expect(ada.body).toMatchObject({ department: { name: 'Analytical Engines' } });
    expect((await arrives('employee.created', created.id)).data.full_name).toBe(
      'Katherine Johnson',
    );

    // The row links to the person it created, whose history names the member and the import.
    await rows.getByRole('button', { name: 'Created (601)' }).click();
    await table.getByRole('link', { name: '1', exact: true }).click();
    await page.getByRole('heading', { name: 'Katherine Johnson' }).waitFor();
    const history = page.getByRole('region', { name: 'History', exact: true });
    await history.getByText(manager).first().waitFor();
    await screenshot(page, 'import-person-history');
    await history.getByRole('link', { name: 'new-hires.csv' }).click();
    await page.getByRole('heading', { name: 'new-hires.csv' }).waitFor();

    await nav('Imports');
    const list = page.getByRole('table', { name: 'Imports' });
    await list.getByText('601 created, 1 updated, 0 unchanged, 2 refused').waitFor();
    expect(await list.getByRole('row').nth(1).innerText()).toMatch(
      /^new-hires\.csv\tPeople\t604\t601 created, 1 updated, 0 unchanged, 2 refused\t.*\tCompleted$/,
    );
  });
});
