import { ErrorNotice } from './notices';

/** What LoadMore reads of an infinite query's result. */
interface NextPageState {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}

/** The button under a list read a page at a time ("Show older"), and why the last press failed. */
export function LoadMore({ query, label }: { query: NextPageState; label: string }) {
  return (
    <>
      {query.isFetchNextPageError && <ErrorNotice error={query.error} />}
      {query.hasNextPage && (
        <button
          type="button"
          className="load-more"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : label}
        </button>
      )}
    </>
  );
}
