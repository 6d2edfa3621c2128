import { createHmac } from 'node:crypto';
import { parseSignatures, sign, signatureHeader, verify } from './signature';

describe('webhook signature', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"evt_1","event":"ping","created_at":"2026-01-01T00:00:00.000Z","data":{}}';
  const now = 1_767_225_600;

  it('signs "<timestamp>.<raw body>" with HMAC-SHA256, lowercase hex, sha256= prefix', () => {
    const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    expect(sign(secret, now, body)).toBe(`sha256=${expected}`);
    expect(sign(secret, String(now), Buffer.from(body))).toBe(`sha256=${expected}`);
  });

  it('verifies a fresh signature', () => {
    expect(verify(secret, body, String(now), sign(secret, now, body), { now })).toEqual({
      ok: true,
    });
  });

  it('refuses a changed body, another secret and a re-serialised body', () => {
    const signature = sign(secret, now, body);
    const reserialised = JSON.stringify(JSON.parse(body), null, 1);
    for (const [s, b] of [
      [secret, `${body} `],
      ['whsec_other', body],
      [secret, reserialised],
    ] as const) {
      expect(verify(s, b, String(now), signature, { now })).toEqual({
        ok: false,
        reason: 'signature_mismatch',
      });
    }
  });

  it('refuses timestamps more than 300 s away, either way', () => {
    const old = now - 301;
    expect(verify(secret, body, String(old), sign(secret, old, body), { now })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    const future = now + 301;
    expect(verify(secret, body, String(future), sign(secret, future, body), { now }).ok).toBe(
      false,
    );
    const edge = now - 300;
    expect(verify(secret, body, String(edge), sign(secret, edge, body), { now }).ok).toBe(true);
  });

  it('refuses missing or malformed headers', () => {
    const signature = sign(secret, now, body);
    expect(verify(secret, body, undefined, signature, { now }).ok).toBe(false);
    expect(verify(secret, body, 'abc', signature, { now }).ok).toBe(false);
    expect(verify(secret, body, String(now), undefined, { now }).ok).toBe(false);
    expect(verify(secret, body, String(now), signature.toUpperCase(), { now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  describe('during a secret rotation (two signatures in one header)', () => {
    const previous = 'whsec_previous-secret';
    const header = signatureHeader([secret, previous], now, body);

    it('lists the current signature first, then the previous, comma-separated', () => {
      expect(header).toBe(`${sign(secret, now, body)}, ${sign(previous, now, body)}`);
      expect(signatureHeader([secret], now, body)).toBe(sign(secret, now, body));
    });

    it('verifies with either secret, and with neither refuses', () => {
      expect(verify(secret, body, String(now), header, { now })).toEqual({ ok: true });
      expect(verify(previous, body, String(now), header, { now })).toEqual({ ok: true });
      expect(verify('whsec_other', body, String(now), header, { now })).toEqual({
        ok: false,
        reason: 'signature_mismatch',
      });
    });

    it('reads the list with or without spaces, skips other schemes, refuses a list of none or too many', () => {
      const [a, b] = [sign(secret, now, body), sign(previous, now, body)];
      expect(parseSignatures(`${a},${b}`)).toEqual([a, b]);
      expect(parseSignatures(`v2=abc, ${b}`)).toEqual([b]);
      expect(parseSignatures('v2=abc')).toBeNull();
      expect(parseSignatures(Array(6).fill(a).join(','))).toBeNull();
      expect(verify(previous, body, String(now), `v2=abc,${b}`, { now })).toEqual({ ok: true });
    });
  });
});
