import {
  ASSET_PAGE_SIZE_DEFAULT,
  ASSET_PAGE_SIZE_MAX,
  ASSET_STATUSES,
  DomainError,
  PERSON_STATUSES,
  type RawQuery,
} from '@custodian/contracts';
import { parseListQuery } from '../listing/list-query';
import { likePattern, parseAssetListQuery } from './asset-list-query';

function rejection(raw: RawQuery): string {
  try {
    parseAssetListQuery(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    return (error as DomainError).message;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
}

describe('parseAssetListQuery', () => {
  it('defaults to no page, the default page size, no filter and no search', () => {
    expect(parseAssetListQuery({})).toEqual({
      page: null,
      pageSize: ASSET_PAGE_SIZE_DEFAULT,
      status: null,
      search: null,
      assignedToId: null,
      warrantyExpiresBefore: null,
      locationId: null,
      includeChildren: false,
      categoryId: null,
      sort: null,
      updatedSince: null,
    });
    expect(ASSET_PAGE_SIZE_DEFAULT).toBe(50);
  });

  it('treats a parameter present with value undefined as absent', () => {
    expect(parseAssetListQuery({ page: undefined, status: undefined })).toEqual(
      parseAssetListQuery({}),
    );
  });

  describe('page', () => {
    it('parses a page number', () => {
      expect(parseAssetListQuery({ page: '1' }).page).toBe(1);
      expect(parseAssetListQuery({ page: '37' }).page).toBe(37);
      expect(parseAssetListQuery({ page: '1000000000' }).page).toBe(1_000_000_000);
    });

    it.each(['0', '-1', 'abc', '', '1.5', '1e3', ' 2', '0x10', '1000000001', '99999999999'])(
      'rejects page=%j',
      (page) => {
        expect(rejection({ page })).toBe('page must be an integer of at least 1');
      },
    );
  });

  describe('pageSize', () => {
    it('parses a page size within 1..200', () => {
      expect(parseAssetListQuery({ pageSize: '1' }).pageSize).toBe(1);
      expect(parseAssetListQuery({ pageSize: '25' }).pageSize).toBe(25);
      expect(parseAssetListQuery({ pageSize: String(ASSET_PAGE_SIZE_MAX) }).pageSize).toBe(200);
    });

    it.each(['0', '201', '-5', 'ten', '', '2.0'])('rejects pageSize=%j', (pageSize) => {
      expect(rejection({ pageSize })).toBe('pageSize must be an integer from 1 to 200');
    });
  });

  describe('unknown and repeated parameters', () => {
    it('names an unknown parameter', () => {
      expect(rejection({ page_size: '10' })).toBe('unknown query parameter page_size');
      expect(rejection({ Page: '1' })).toBe('unknown query parameter Page');
    });

    it('refuses an unknown parameter even next to valid ones', () => {
      expect(rejection({ page: '1', order: 'name' })).toBe('unknown query parameter order');
    });

    it.each(['page', 'pageSize', 'status', 'search', 'assigned_to_id', 'sort'])(
      'refuses %s given twice',
      (name) => {
        expect(rejection({ [name]: ['1', '2'] })).toBe(`${name} must be given once`);
      },
    );
  });

  describe('assigned_to_id', () => {
    it('filters by the person an asset is checked out to', () => {
      expect(parseAssetListQuery({ assigned_to_id: 'per_01' }).assignedToId).toBe('per_01');
    });

    it.each([
      ['empty', ''],
      ['over 64 characters', 'p'.repeat(65)],
    ])('refuses an id that is %s', (_label, id) => {
      expect(rejection({ assigned_to_id: id })).toBe(
        'assigned_to_id must be between 1 and 64 characters',
      );
    });

    it('is not a filter of the people list', () => {
      expect(() => parseListQuery({ assigned_to_id: 'per_01' }, PERSON_STATUSES)).toThrow(
        'unknown query parameter assigned_to_id',
      );
    });
  });

  describe('status', () => {
    it('accepts each of the six statuses', () => {
      expect([...ASSET_STATUSES]).toEqual([
        'active',
        'maintenance',
        'retired',
        'lost',
        'stolen',
        'inactive',
      ]);
      for (const status of ASSET_STATUSES) {
        expect(parseAssetListQuery({ status }).status).toBe(status);
      }
    });

    it.each(['ACTIVE', 'deleted', '', 'active '])('rejects status=%j', (status) => {
      expect(rejection({ status })).toBe(
        'status must be one of active, maintenance, retired, lost, stolen, inactive',
      );
    });
  });

  describe('search', () => {
    it('trims the search text', () => {
      expect(parseAssetListQuery({ search: '  laptop  ' }).search).toBe('laptop');
      expect(parseAssetListQuery({ search: 'Dell XPS' }).search).toBe('Dell XPS');
    });

    it('treats a blank search as no search', () => {
      expect(parseAssetListQuery({ search: '' }).search).toBeNull();
      expect(parseAssetListQuery({ search: '   \t ' }).search).toBeNull();
    });

    it('accepts 200 characters and refuses 201', () => {
      expect(parseAssetListQuery({ search: 'x'.repeat(200) }).search).toBe('x'.repeat(200));
      expect(rejection({ search: 'x'.repeat(201) })).toBe('search must be at most 200 characters');
    });

    it('counts characters as code points, as the body fields do', () => {
      const emoji = '\u{1F600}'.repeat(200);
      expect(parseAssetListQuery({ search: emoji }).search).toBe(emoji);
      expect(rejection({ search: 'e\u0301'.repeat(101) })).toBe(
        'search must be at most 200 characters',
      );
    });
  });

  it('parses every parameter together', () => {
    expect(
      parseAssetListQuery({
        page: '2',
        pageSize: '10',
        status: 'lost',
        search: ' mac ',
        warranty_expires_before: '2027-01-01',
        location_id: 'loc_1',
        include_children: 'true',
        category_id: 'cat_1',
      }),
    ).toEqual({
      page: 2,
      pageSize: 10,
      status: 'lost',
      search: 'mac',
      assignedToId: null,
      warrantyExpiresBefore: '2027-01-01',
      locationId: 'loc_1',
      includeChildren: true,
      categoryId: 'cat_1',
      sort: null,
      updatedSince: null,
    });
  });

  it('takes updated_since as an instant with its offset, the list then in updated_at order', () => {
    const since = '2026-11-28T10:00:00.123456Z';
    expect(parseAssetListQuery({ updated_since: since })).toMatchObject({
      updatedSince: since,
      sort: { column: 'updated_at', descending: false },
    });
    expect(parseAssetListQuery({ updated_since: since, sort: 'updated_at' }).sort).toEqual({
      column: 'updated_at',
      descending: false,
    });
    for (const bad of ['yesterday', '2026-11-28', '2026-11-28T10:00:00', '2026-02-30T10:00:00Z']) {
      expect(rejection({ updated_since: bad })).toBe(
        'updated_since must be a date and time with its offset, like 2026-12-01T17:00:00.000Z',
      );
    }
    expect(rejection({ updated_since: since, sort: '-updated_at' })).toBe(
      'sort must be updated_at, or left out, with updated_since',
    );
  });

  it('takes include_children as true or false, and only with location_id', () => {
    expect(rejection({ location_id: 'loc_1', include_children: 'yes' })).toBe(
      'include_children must be true or false',
    );
    expect(rejection({ include_children: 'true' })).toBe(
      'include_children goes with location_id (the place whose children to include)',
    );
    expect(parseAssetListQuery({ include_children: 'false' }).includeChildren).toBe(false);
    expect(rejection({ location_id: 'x'.repeat(65) })).toBe(
      'location_id must be between 1 and 64 characters',
    );
  });

  it('takes warranty_expires_before as a day that exists, once', () => {
    for (const bad of ['2027-13-01', '2027-02-29', '27-01-01', 'soon', '']) {
      expect(() => parseAssetListQuery({ warranty_expires_before: bad })).toThrow(
        'warranty_expires_before must be a date (YYYY-MM-DD)',
      );
    }
    expect(
      parseAssetListQuery({ warranty_expires_before: '2028-02-29' }).warrantyExpiresBefore,
    ).toBe('2028-02-29');
    expect(() =>
      parseAssetListQuery({ warranty_expires_before: ['2027-01-01', '2027-02-01'] }),
    ).toThrow('warranty_expires_before must be given once');
  });

  it('takes a sort by an indexed column, - for descending; created_at is the default', () => {
    expect(parseAssetListQuery({ sort: 'name' }).sort).toEqual({
      column: 'name',
      descending: false,
    });
    expect(parseAssetListQuery({ sort: '-updated_at' }).sort).toEqual({
      column: 'updated_at',
      descending: true,
    });
    expect(parseAssetListQuery({ sort: 'created_at' }).sort).toBeNull();
    expect(parseAssetListQuery({ sort: '-created_at' }).sort).toEqual({
      column: 'created_at',
      descending: true,
    });
    expect(rejection({ sort: 'serial_number' })).toBe(
      'sort must be one of created_at, name, updated_at, each with - before it for descending',
    );
    expect(rejection({ sort: ['name', 'updated_at'] })).toBe('sort must be given once');
  });
});

describe('NUL characters', () => {
  it('refuses a query value holding U+0000, naming the parameter', () => {
    expect(() => parseAssetListQuery({ search: 'a\u0000b' })).toThrow(
      'search must not contain NUL characters',
    );
  });
});

describe('likePattern', () => {
  it('wraps the text in % for a substring match, leaving case to Postgres lower()', () => {
    expect(likePattern('MacBook')).toBe('%MacBook%');
  });

  it('escapes %', () => {
    expect(likePattern('50%')).toBe('%50\\%%');
  });

  it('escapes _', () => {
    expect(likePattern('a_b')).toBe('%a\\_b%');
  });

  it('escapes the backslash itself', () => {
    expect(likePattern('C:\\tmp')).toBe('%C:\\\\tmp%');
  });

  it('escapes every wildcard in a mixed string', () => {
    expect(likePattern('%_\\')).toBe('%\\%\\_\\\\%');
  });
});
