import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** A list's state, all of it in the URL (`?search=&status=&sort=&page=`), so a view can be shared. */
export interface ListView<S extends string> {
  search: string;
  status: S | null;
  /** One of the list's sorts, or null for its default order. */
  sort: string | null;
  page: number;
}

/** The view a query string describes; a status the list does not know is no filter. */
export function viewFromSearch<S extends string>(
  search: URLSearchParams,
  isStatus: (value: string | null) => value is S,
  sorts: readonly string[] = [],
): ListView<S> {
  const page = Number(search.get('page') ?? '1');
  const status = search.get('status');
  const sort = search.get('sort');
  return {
    search: search.get('search') ?? '',
    status: isStatus(status) ? status : null,
    sort: sort !== null && sorts.includes(sort) ? sort : null,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

export function searchFromView<S extends string>(view: ListView<S>): URLSearchParams {
  const search = new URLSearchParams();
  if (view.search) search.set('search', view.search);
  if (view.status) search.set('status', view.status);
  if (view.sort) search.set('sort', view.sort);
  if (view.page > 1) search.set('page', String(view.page));
  return search;
}

const NO_SORTS: readonly string[] = [];

/** The list view in the page's URL, and how to show another one. */
export function useListView<S extends string>(
  isStatus: (value: string | null) => value is S,
  sorts: readonly string[] = NO_SORTS,
): [ListView<S>, (next: ListView<S>) => void] {
  const [params, setParams] = useSearchParams();
  const paramsText = params.toString();
  // `isStatus` and `sorts` are module-level constants of the page: the view changes with the URL.
  const view = useMemo(
    () => viewFromSearch(new URLSearchParams(paramsText), isStatus, sorts),
    [paramsText, isStatus, sorts],
  );
  return [view, (next) => setParams(searchFromView(next))];
}
