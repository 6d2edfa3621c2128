import type {
  AssetDetail,
  AssetSummary,
  ErrorBody,
  Page,
  PersonDetail,
} from '@custodian/contracts';
import type { ApiResponse } from '@custodian/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

/**
 * The register under more lists and searches than it may run, through the real apps: one heavy
 * read at a time (REGISTER_HEAVY_CONCURRENCY=1), and a query that cannot finish because the
 * test's own connection holds register.categories (which every asset list joins; a person's
 * fetch does not) in ACCESS EXCLUSIVE mode. Nothing in the apps knows it is a test.
 */
const REGISTER_TIMEOUT_MS = 1_500;
/** Room for the register's "nothing was written" to reach the gateway before it gives up. */
const MARGIN_MS = 250;
const LISTS = 6;

describe('overload: shed with 503 + Retry-After, cancel at the deadline, never pile up (e2e)', () => {
  const stack = new TestStack({
    registerTimeoutMs: REGISTER_TIMEOUT_MS,
    worker: false,
    env: { REGISTER_HEAVY_CONCURRENCY: '1', REGISTER_DEADLINE_MARGIN_MS: String(MARGIN_MS) },
  });
  let tenant: Tenant;
  let person: PersonDetail;
  /** Holds the lock, in a transaction of its own. */
  let holder: Client;
  /** Reads pg_stat_activity: outside the holder's transaction, which would see one snapshot. */
  let observer: Client;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    person = (await tenant.post<PersonDetail>('/people', { full_name: 'Ada Lovelace' })).body;
    expect((await tenant.post('/assets', { name: 'Laptop one' })).status).toBe(201);
    holder = new Client({ connectionString: stack.databaseUrl });
    observer = new Client({ connectionString: stack.databaseUrl });
    await Promise.all([holder.connect(), observer.connect()]);
  }, 30_000);

  afterAll(async () => {
    await holder?.end();
    await observer?.end();
    await stack.stop();
  });

  async function whileCategoriesLocked<T>(work: () => Promise<T>): Promise<T> {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE register.categories IN ACCESS EXCLUSIVE MODE');
    try {
      return await work();
    } finally {
      await holder.query('ROLLBACK');
    }
  }

  /** The register's statements on the locked table in Postgres now: running or queued. */
  async function registerStatements(): Promise<{ active: number; waitingOnLock: number }> {
    const { rows } = await observer.query<{ active: number; waiting: number }>(
      `SELECT count(*)::int AS active,
              count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting
       FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'custodian-register'
         AND state = 'active' AND query LIKE '%register.categories%'`,
    );
    return { active: rows[0]?.active ?? -1, waitingOnLock: rows[0]?.waiting ?? -1 };
  }

  function expectOverloaded(response: ApiResponse<unknown>): void {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = response.body as ErrorBody;
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(body.message).toMatch(/register/);
  }

  it('refuses lists over the limit at once, cancels the running one at the deadline, and keeps serving fetches and writes', async () => {
    await whileCategoriesLocked(async () => {
      // A first list runs into the lock and is cancelled at its deadline: now the register
      // knows that lists take that long here.
      const first = Date.now();
      const warmUp = await tenant.get('/assets?page=1&search=laptop');
      expectOverloaded(warmUp);
      expect((warmUp.body as ErrorBody).message).toMatch(/within the request deadline/);
      expect(Date.now() - first).toBeGreaterThanOrEqual(REGISTER_TIMEOUT_MS - MARGIN_MS - 100);

      const started = Date.now();
      const answeredAt: number[] = [];
      const lists = Array.from({ length: LISTS }, (_, i) =>
        tenant.get(`/assets?page=1&search=laptop&pageSize=${10 + i}`).then((response) => {
          answeredAt.push(Date.now() - started);
          return response;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      // One list reached Postgres and waits on the lock. The others were refused at once: at
      // the pace lists run now, no turn could come while their callers still wait.
      expect(await registerStatements()).toMatchObject({ waitingOnLock: 1 });
      const refusedSoFar = answeredAt.length;

      // A fetch and a write beside them: served, and quickly.
      const fetchStarted = Date.now();
      const fetched = await tenant.get<PersonDetail>(`/people/${person.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body.id).toBe(person.id);
      const created = await tenant.post<PersonDetail>('/people', { full_name: 'Grace Hopper' });
      expect(created.status).toBe(201);
      expect(Date.now() - fetchStarted).toBeLessThan(REGISTER_TIMEOUT_MS / 2);

      const responses = await Promise.all(lists);
      // All are 503 with Retry-After and the error body: no 504, no 500.
      responses.forEach(expectOverloaded);
      const messages = responses.map((response) => (response.body as ErrorBody).message);
      expect(messages.filter((m) => /as many lists and searches as it can/.test(m))).toHaveLength(
        LISTS - 1,
      );
      expect(messages.filter((m) => /within the request deadline/.test(m))).toHaveLength(1);

      const times = [...answeredAt].sort((a, b) => a - b);
      expect(refusedSoFar).toBe(LISTS - 1);
      expect(times.slice(0, LISTS - 1).every((ms) => ms < 500)).toBe(true);
      // The running one was cancelled at the deadline less the margin, answered before the
      // gateway's own timeout...
      const last = times[LISTS - 1] ?? Infinity;
      expect(last).toBeGreaterThanOrEqual(REGISTER_TIMEOUT_MS - MARGIN_MS - 100);
      expect(last).toBeLessThan(REGISTER_TIMEOUT_MS);
      // ...and by then nothing of it is left in Postgres: no statement piles up.
      expect(await registerStatements()).toEqual({ active: 0, waitingOnLock: 0 });
    });

    // Lock released: lists answer again.
    const page = await tenant.get<Page<AssetSummary>>('/assets?page=1&search=laptop');
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(1);
  }, 20_000);

  it('applies a write caught behind the lock not at all, then once when it is retried with its key', async () => {
    const key = randomUUID();
    const body = { name: 'Blocked write', serial_number: `OVL-${key.slice(0, 8)}` };
    const post = () =>
      tenant.request<AssetDetail>('/assets', {
        method: 'POST',
        body,
        headers: { 'idempotency-key': key },
      });
    const written = async () => {
      const [row] = await stack.query<{ assets: number; events: number; applied: number }>(
        `SELECT (SELECT count(*)::int FROM register.assets WHERE serial_number = $1) AS assets,
                (SELECT count(*)::int FROM register.outbox
                  WHERE event = 'asset.created' AND data->>'serial_number' = $1) AS events,
                (SELECT count(*)::int FROM register.applied_requests
                  WHERE fingerprint IS NOT NULL AND reply->>'serial_number' = $1) AS applied`,
        [body.serial_number],
      );
      return row;
    };

    // The create reads the new asset back with its category (the locked table): it cannot
    // finish, is rolled back at the deadline, and the client is told so in time.
    const refused = await whileCategoriesLocked(post);
    expectOverloaded(refused);
    expect((refused.body as unknown as ErrorBody).message).toMatch(/nothing was written/);
    expect(await written()).toEqual({ assets: 0, events: 0, applied: 0 });

    const retried = await post();
    expect(retried.status).toBe(201);
    expect(retried.body.serial_number).toBe(body.serial_number);
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.text).toBe(retried.text);
    expect(await written()).toEqual({ assets: 1, events: 1, applied: 1 });
  }, 20_000);

  it('answers a read the register never answers with 503 + Retry-After, and a write with 504', async () => {
    await stack.stopRegister();
    try {
      const read = await tenant.get(`/people/${person.id}`);
      expectOverloaded(read);
      expect((read.body as ErrorBody).message).toMatch(/did not answer in time/);
      // A write may have been applied by a register that answered too late: outcome unknown.
      const write = await tenant.post('/people', { full_name: 'Sent while down' });
      expect(write.status).toBe(504);
      expect(write.headers.get('retry-after')).toBeNull();
    } finally {
      await stack.startRegister();
    }
  }, 20_000);
});
