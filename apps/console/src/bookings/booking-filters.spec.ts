import { paramsFromView, queryOfView, viewFromParams } from './booking-filters';

describe('the bookings list view', () => {
  it('reads the URL, dropping what it does not know', () => {
    const view = viewFromParams(
      new URLSearchParams('status=bogus&person=per_1&from=2026-12-01&to=yesterday&page=0'),
    );
    expect(view).toEqual({
      status: null,
      person: 'per_1',
      asset: '',
      from: '2026-12-01',
      to: '',
      page: 1,
    });
  });

  it('writes only what is set, and reads it back the same', () => {
    const view = {
      status: 'requested' as const,
      person: '',
      asset: 'ast_1',
      from: '2026-12-01',
      to: '2026-12-07',
      page: 2,
    };
    const params = paramsFromView(view);
    expect(params.toString()).toBe(
      'status=requested&asset=ast_1&from=2026-12-01&to=2026-12-07&page=2',
    );
    expect(viewFromParams(params)).toEqual(view);
  });

  it('asks the API for the whole days of the range, in the reader’s time', () => {
    const query = queryOfView(
      { status: null, person: 'per_1', asset: '', from: '2026-12-01', to: '2026-12-31', page: 3 },
      50,
    );
    expect(query).toEqual({
      page: '3',
      pageSize: '50',
      person_id: 'per_1',
      from: new Date(2026, 11, 1).toISOString(),
      to: new Date(2027, 0, 1).toISOString(),
    });
  });
});
