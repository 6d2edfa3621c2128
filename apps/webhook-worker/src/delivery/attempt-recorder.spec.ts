import { AttemptRecorder } from './attempt-recorder';
import type { AttemptRecord, ClaimedDelivery } from './delivery-leases';
import type { AttemptResult } from './sender';

/** The lease statements as the recorder sees them: down (rejecting) until told otherwise. */
class Leases {
  down = true;
  failure: Error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
  });
  readonly recorded: AttemptRecord[] = [];
  tries = 0;

  record(attempts: AttemptRecord[]): Promise<[]> {
    this.tries++;
    if (this.down) return Promise.reject(this.failure);
    this.recorded.push(...attempts);
    return Promise.resolve([]);
  }
}

const createdAt = '2026-11-23T11:59:59.000Z';

const delivery = (id: string): ClaimedDelivery => ({
  id,
  endpointId: 'whe_1',
  workspaceId: 'wsp_1',
  event: 'asset.created',
  body: JSON.stringify({ id: 'evt_1', event: 'asset.created', created_at: createdAt, data: {} }),
  eventCreatedAt: createdAt,
  attempts: 0,
  chain: 1,
  attemptsBeforeChain: 0,
  url: 'https://example.com/hook',
  secret: 'v1:k:x:y:z',
  previousSecret: null,
  context: null,
  lease: '2026-11-23 12:00:00+00',
});

const answered: AttemptResult = {
  startedAt: new Date(),
  durationMs: 12,
  statusCode: 200,
  error: null,
  responseBody: 'ok',
  requestHeaders: {},
  responseHeaders: {},
};

describe('AttemptRecorder while Postgres is away', () => {
  let now = 1_000_000;
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());

  it('never gives up an answered attempt for Postgres being away, and records it once back', async () => {
    const leases = new Leases();
    const warnings: string[] = [];
    const recorder = new AttemptRecorder(leases, [300, 900], (m) => warnings.push(m));
    recorder.add(delivery('dlv_1'), answered);
    // A minute of failed rounds, each as soon as its backoff allows.
    for (let round = 0; round < 60; round++) {
      expect(await recorder.record()).toEqual([]);
      now = Math.max(now + 1, recorder.retryAt);
    }
    expect(leases.tries).toBeGreaterThan(50);
    expect(recorder.waiting).toBe(1);
    expect(warnings).toEqual([]);
    // Never more than a second between tries: recorded within a second of Postgres's return.
    expect(recorder.retryAt - now).toBeLessThanOrEqual(1_000);
    leases.down = false;
    now = recorder.retryAt;
    expect(await recorder.record()).toEqual(['dlv_1']);
    expect(leases.recorded).toMatchObject([
      { deliveryId: 'dlv_1', attempt: 1, status: 'delivered' },
    ]);
  });

  it('gives up after a few tries a failure that is not Postgres being away (a broken statement)', async () => {
    const leases = new Leases();
    leases.failure = Object.assign(new Error('permission denied for table deliveries'), {
      code: '42501',
    });
    const warnings: string[] = [];
    const recorder = new AttemptRecorder(leases, [300], (m) => warnings.push(m));
    recorder.add(delivery('dlv_1'), answered);
    const letGo: string[] = [];
    for (let round = 0; round < 10; round++) {
      letGo.push(...(await recorder.record()));
      now = Math.max(now + 1, recorder.retryAt);
    }
    expect(leases.tries).toBe(6);
    expect(letGo).toEqual(['dlv_1']);
    expect(warnings).toEqual([expect.stringContaining('attempt of dlv_1 not recorded')]);
  });

  it('abandons what is left when told to (a worker stopping during an outage), with a warning', async () => {
    const leases = new Leases();
    const warnings: string[] = [];
    const recorder = new AttemptRecorder(leases, [300], (m) => warnings.push(m));
    recorder.add(delivery('dlv_1'), answered);
    recorder.add(delivery('dlv_2'), answered);
    await recorder.record();
    expect(recorder.abandon()).toEqual(['dlv_1', 'dlv_2']);
    expect(recorder.waiting).toBe(0);
    expect(warnings).toEqual([expect.stringContaining('attempt of dlv_1 and 1 more not recorded')]);
  });
});

describe('AttemptRecorder counts retries per chain', () => {
  const failedWith500: AttemptResult = { ...answered, statusCode: 500, responseBody: 'boom' };

  async function recordOne(claimed: ClaimedDelivery) {
    const leases = new Leases();
    leases.down = false;
    const recorder = new AttemptRecorder(leases, [300, 900], () => {
      throw new Error('no warning expected');
    });
    recorder.add(claimed, failedWith500);
    await recorder.record();
    return leases.recorded[0];
  }

  it('retries attempts 1 and 2 of the first chain, fails on its 3rd', async () => {
    expect(await recordOne(delivery('dlv_1'))).toMatchObject({
      attempt: 1,
      chain: 1,
      status: 'pending',
      waitMs: 300,
    });
    expect(await recordOne({ ...delivery('dlv_1'), attempts: 2 })).toMatchObject({
      attempt: 3,
      status: 'failed',
    });
  });

  it('gives a resend (chain 2, after 3 attempts) three attempts of its own, numbered on', async () => {
    const resent = { ...delivery('dlv_1'), chain: 2, attemptsBeforeChain: 3 };
    expect(await recordOne({ ...resent, attempts: 3 })).toMatchObject({
      attempt: 4,
      chain: 2,
      status: 'pending',
      waitMs: 300,
    });
    expect(await recordOne({ ...resent, attempts: 4 })).toMatchObject({
      attempt: 5,
      status: 'pending',
      waitMs: 900,
    });
    expect(await recordOne({ ...resent, attempts: 5 })).toMatchObject({
      attempt: 6,
      status: 'failed',
    });
  });

  it('tells what a recording changed of an endpoint', async () => {
    const change = {
      id: 'whe_1',
      workspaceId: 'wsp_1',
      url: 'https://example.com/hook',
      change: 'auto_disabled' as const,
      consecutiveFailures: 50,
    };
    const leases = { record: () => Promise.resolve([change]) };
    const told: unknown[] = [];
    const recorder = new AttemptRecorder(
      leases,
      [300],
      () => undefined,
      (changes) => told.push(...changes),
    );
    recorder.add(delivery('dlv_1'), answered);
    await recorder.record();
    expect(told).toEqual([change]);
  });
});
