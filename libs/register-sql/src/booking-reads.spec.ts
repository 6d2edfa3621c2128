import { bookingPageSql } from './booking-reads';

describe('bookingPageSql', () => {
  const from = new Date('2026-11-30T00:00:00Z');
  const to = new Date('2026-12-07T00:00:00Z');

  it('reads a range through the range index, beside the clauses that define it', () => {
    const { count, rows, params } = bookingPageSql({ workspaceId: 'w', from, to }, 2, 50);
    expect(params).toEqual(['w', from, to]);
    const where =
      'b.workspace_id = $1 AND b.ends_at > $2 AND b.starts_at < $3' +
      ' AND tstzrange(b.starts_at, b.ends_at) && tstzrange($2, $3)';
    expect(count).toBe(`SELECT count(*)::int AS total FROM register.bookings b WHERE ${where}`);
    expect(rows).toContain(`WHERE ${where}`);
    expect(rows).toMatch(/ORDER BY b\.starts_at, b\.id\s+LIMIT 50 OFFSET 50$/);
  });

  it('leaves the range out for one bound, or bounds the wrong way round', () => {
    expect(bookingPageSql({ workspaceId: 'w', from }, 1, 50).count).not.toContain('tstzrange');
    expect(bookingPageSql({ workspaceId: 'w', to }, 1, 50).count).not.toContain('tstzrange');
    const backwards = bookingPageSql({ workspaceId: 'w', from: to, to: from }, 1, 50);
    expect(backwards.count).not.toContain('tstzrange');
    expect(backwards.params).toEqual(['w', to, from]);
  });

  it('numbers the other filters after the range', () => {
    const { count, params } = bookingPageSql(
      { workspaceId: 'w', from, to, personId: 'p', status: 'confirmed', assetId: 'a' },
      1,
      50,
    );
    expect(params).toEqual(['w', from, to, 'p', 'confirmed', 'a']);
    expect(count).toContain('b.person_id = $4 AND b.status = $5');
    expect(count).toContain('ba.asset_id = $6');
  });
});
