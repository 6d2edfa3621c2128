import type { ReactNode } from 'react';
import { ErrorNotice, Loading } from './notices';

/** What QueryState reads of a query's result (useQuery's and useInfiniteQuery's alike). */
interface QueryResultState<T> {
  status: 'pending' | 'error' | 'success';
  data: T | undefined;
  error: unknown;
  /** An infinite query's failed next page: LoadMore says it, beside its button. */
  isFetchNextPageError?: boolean;
}

/**
 * One query on a screen: "Loading …" until its first answer, then its failure as a notice and
 * its data through `children`; the data stays under the notice when a later read fails.
 */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: QueryResultState<T>;
  /** Finishes "Loading …": "assets", "the asset". */
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.status === 'pending') return <Loading what={what} />;
  return (
    <>
      {!query.isFetchNextPageError && <ErrorNotice error={query.error} />}
      {query.data !== undefined && children(query.data)}
    </>
  );
}
