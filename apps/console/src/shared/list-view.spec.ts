import { searchFromView, viewFromSearch } from './list-view';

const isColour = (value: string | null): value is 'red' | 'blue' =>
  value === 'red' || value === 'blue';

describe('list view in the URL', () => {
  it('reads search, status and page, ignoring what it does not know', () => {
    expect(viewFromSearch(new URLSearchParams('search=mac&status=red&page=3'), isColour)).toEqual({
      search: 'mac',
      status: 'red',
      sort: null,
      page: 3,
    });
    expect(viewFromSearch(new URLSearchParams('status=green&page=-2'), isColour)).toEqual({
      search: '',
      status: null,
      sort: null,
      page: 1,
    });
  });

  it('keeps a sort only when the list offers it', () => {
    const sorts = ['name', '-name'] as const;
    expect(viewFromSearch(new URLSearchParams('sort=-name'), isColour, sorts).sort).toBe('-name');
    expect(viewFromSearch(new URLSearchParams('sort=price'), isColour, sorts).sort).toBeNull();
  });

  it('writes only what differs from the default view', () => {
    expect(searchFromView({ search: '', status: null, sort: null, page: 1 }).toString()).toBe('');
    expect(
      searchFromView({ search: 'a b', status: 'blue', sort: 'name', page: 2 }).toString(),
    ).toBe('search=a+b&status=blue&sort=name&page=2');
  });
});
