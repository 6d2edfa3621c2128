import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  type ErrorBody,
  type InvitationView,
  type RenewedInvitationView,
} from '@custodian/contracts';
import type { ApiResponse } from '@custodian/testing';
import { TestStack, type Tenant } from './support/stack';

const LIMIT = 5;

/**
 * Waits for the next minute's window unless `seconds` are left in this one: the guard counts
 * per clock minute, and a test whose requests straddle two windows sees its count restart.
 * Six requests through the register took over 5 s on a loaded CI machine (2026-11-27).
 */
async function freshWindow(seconds = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

function quotaHeaders(response: ApiResponse): Array<string | null> {
  return ['x-quota-limit', 'x-quota-used', 'x-quota-remaining'].map((name) =>
    response.headers.get(name),
  );
}

/**
 * The brute-force guard (DECISIONS: API keys): failed authentications per client address and
 * minute, reported in X-RateLimit-* on the 401s, then refused with 429.
 */
describe('unauthenticated requests per client address (e2e)', () => {
  const stack = new TestStack({ env: { UNAUTHENTICATED_RATE_PER_MINUTE: String(LIMIT) } });
  let tenant: Tenant;
  let revokedKey: string;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'read');
    const revoked = await stack.createKey(tenant.workspace.id, 'read');
    await stack.adminCall(GatewayAdminPatterns.keyRevoke, { id: revoked.id });
    revokedKey = revoked.key;
  }, 30_000);

  afterAll(() => stack.stop());

  it('counts 401s down, refuses the next with 429, and keeps serving a valid key', async () => {
    // The valid key is in use before the attack (its record is in Redis).
    expect((await tenant.get('/ping')).status).toBe(200);
    await freshWindow();

    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer cus_malformed' },
      { authorization: `Bearer ${revokedKey}` },
      { 'x-api-key': 'not-a-key' },
      { authorization: `Bearer ${revokedKey}` },
    ];
    const seen = [];
    for (const headers of attempts) {
      const response = await stack.request<ErrorBody>('/assets', { headers });
      seen.push({
        status: response.status,
        limit: response.headers.get('x-ratelimit-limit'),
        remaining: response.headers.get('x-ratelimit-remaining'),
        quota: quotaHeaders(response),
        retryAfter: response.headers.get('retry-after'),
      });
    }
    expect(seen).toEqual(
      [4, 3, 2, 1, 0].map((remaining) => ({
        status: 401,
        limit: String(LIMIT),
        remaining: String(remaining),
        quota: [null, null, null],
        retryAfter: null,
      })),
    );

    const refused = await stack.request<ErrorBody>('/ping', {
      headers: { authorization: `Bearer ${revokedKey}` },
    });
    const nowSeconds = Date.now() / 1000;
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Rate limit of ${LIMIT} unauthenticated requests per minute per client address exceeded`,
    });
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(quotaHeaders(refused)).toEqual([null, null, null]);
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset % 60).toBe(0);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(
      Math.abs(Number(refused.headers.get('retry-after')) - (reset - nowSeconds)),
    ).toBeLessThanOrEqual(1);

    // A missing key is refused the same way.
    expect((await stack.request('/assets')).status).toBe(429);

    // The valid key from the same address still works, with its own limit headers.
    const valid = await tenant.get('/assets');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('x-ratelimit-limit')).toBe('1000000');
    expect(valid.headers.get('x-quota-used')).toBe('1');
  }, 40_000);
});

/** The invitation link's token is a credential too: guesses count against the address. */
describe('invitation tokens per client address (e2e)', () => {
  const stack = new TestStack({
    env: { UNAUTHENTICATED_RATE_PER_MINUTE: String(LIMIT) },
    worker: false,
  });
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(() => stack.stop());

  it('counts unknown tokens, then refuses even a valid one with 429 while keys keep working', async () => {
    expect((await tenant.post('/members', { email: 'guarded@example.com' })).status).toBe(201);
    const [listed] = await stack.registerAdminCall<InvitationView[]>(
      RegisterAdminPatterns.invitationList,
      { workspace: tenant.workspace.id },
    );
    // No mail server here: a valid token from a new link (only its hash is stored).
    const invitation = await stack.registerAdminCall<RenewedInvitationView>(
      RegisterAdminPatterns.invitationRenew,
      { id: listed!.id },
    );
    expect((await tenant.get('/ping')).status).toBe(200);
    await freshWindow();

    const guesses = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await stack.request(`/invitations/accept?token=guess${i}`, {
        method: 'POST',
      });
      guesses.push(response.status);
    }
    expect(guesses).toEqual(Array.from({ length: LIMIT }, () => 404));

    const refused = await stack.request<ErrorBody>(
      `/invitations/accept?token=${invitation.token}`,
      { method: 'POST' },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      `Rate limit of ${LIMIT} unauthenticated requests per minute per client address exceeded`,
    );
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // Nothing was accepted, and a valid key from the same address still works.
    const [still] = await stack.registerAdminCall<InvitationView[]>(
      RegisterAdminPatterns.invitationList,
      { workspace: tenant.workspace.id },
    );
    expect(still).toEqual({ ...listed, expires_at: invitation.expires_at });
    expect((await tenant.get('/ping')).status).toBe(200);
  }, 40_000);
});
