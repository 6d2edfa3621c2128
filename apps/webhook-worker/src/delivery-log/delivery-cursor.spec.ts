import { DomainError } from '@custodian/contracts';
import { decodeCursor, encodeCursor } from './delivery-cursor';

describe('delivery log cursor', () => {
  const cursor = { createdAt: '2026-01-01T12:00:00.123456Z', id: 'dlv_01JQ8ZK3V4Q2N6XW8D7H5F3B1C' };

  it('round-trips, microseconds kept, as url-safe text', () => {
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it('refuses anything else with a message naming before', () => {
    for (const raw of [
      'garbage',
      '',
      Buffer.from('2026-01-01T12:00:00Z|dlv_1').toString('base64url'),
      Buffer.from(`${cursor.createdAt}|dlv 1`).toString('base64url'),
      Buffer.from(`${cursor.createdAt}|dlv_1|x`).toString('base64url'),
    ]) {
      expect(() => decodeCursor(raw)).toThrow(
        new DomainError(
          'invalid_input',
          'before must be the next_cursor of a previous page of the delivery log',
        ),
      );
    }
  });
});
