import {
  NO_FILTERS,
  filtersFromSearch,
  hasFilters,
  isoToLocalInput,
  listQuery,
  localInputToIso,
  resendBody,
  searchFromFilters,
} from './delivery-filters';

const filters = {
  endpoint: 'whe_1',
  event: 'asset.created',
  status: 'failed' as const,
  from: '2026-11-20T08:00:00.000Z',
  to: '2026-11-23T18:30:00.000Z',
};

describe('filters in the URL', () => {
  it('round-trips every filter through the search params', () => {
    const search = searchFromFilters(filters);
    expect(search.toString()).toBe(
      'endpoint=whe_1&event=asset.created&status=failed&from=2026-11-20T08%3A00%3A00.000Z&to=2026-11-23T18%3A30%3A00.000Z',
    );
    expect(filtersFromSearch(new URLSearchParams(search.toString()))).toEqual(filters);
  });

  it('leaves out the filters not set', () => {
    expect(searchFromFilters({ ...NO_FILTERS, status: 'pending' }).toString()).toBe(
      'status=pending',
    );
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, event: 'asset.created' })).toBe(true);
  });

  it('ignores a value that cannot be a filter', () => {
    const read = filtersFromSearch(new URLSearchParams('status=lost&from=yesterday&to=2026-11-23'));
    expect(read.status).toBe('');
    expect(read.from).toBe('');
    expect(read.to).toBe('2026-11-23T00:00:00.000Z');
  });
});

describe('what is sent to the API', () => {
  it('asks for one page, older than the cursor when there is one', () => {
    expect(listQuery({ ...NO_FILTERS, status: 'failed' })).toEqual({ limit: 50, status: 'failed' });
    expect(listQuery(filters, 'cursor-1', 20)).toEqual({
      ...filters,
      before: 'cursor-1',
      limit: 20,
    });
  });

  it('resends the same range without a status (only failed ones are resent)', () => {
    expect(resendBody(filters)).toEqual({
      endpoint: 'whe_1',
      event: 'asset.created',
      from: filters.from,
      to: filters.to,
    });
    expect(resendBody(NO_FILTERS)).toEqual({});
  });
});

describe('datetime-local inputs', () => {
  it('converts the local input to the same instant and back', () => {
    const iso = localInputToIso('2026-11-23T09:45');
    expect(new Date(iso).getHours()).toBe(9);
    expect(new Date(iso).getMinutes()).toBe(45);
    expect(isoToLocalInput(iso)).toBe('2026-11-23T09:45');
  });

  it('is empty for an empty or malformed value', () => {
    expect(localInputToIso('')).toBe('');
    expect(localInputToIso('23/11/2026')).toBe('');
    expect(isoToLocalInput('')).toBe('');
  });
});
