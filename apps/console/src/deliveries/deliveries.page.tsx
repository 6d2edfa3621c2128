import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { DeliveryTable } from '../shared/delivery-table';
import { plural } from '../shared/format';
import { LoadMore } from '../shared/load-more';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { endpointQueries } from '../webhooks/webhooks.queries';
import { deliveryQueries, useResendFailedDeliveries } from './deliveries.queries';
import { DeliveryFilterForm } from './delivery-filter-form';
import {
  type FilterValues,
  filtersFromSearch,
  hasFilters,
  listQuery,
  resendBody,
  searchFromFilters,
} from './delivery-filters';

export function DeliveriesPage() {
  usePageTitle('Delivery log');
  const { session } = useSession();
  const [search, setSearch] = useSearchParams();
  const searchText = search.toString();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(searchText)), [searchText]);
  // The filters' choices: the webhooks screens' own queries, so one cache entry each.
  const endpoints = useQuery(endpointQueries.list());
  const modules = useQuery(endpointQueries.events());
  const log = useInfiniteQuery(deliveryQueries.log(listQuery(filters)));
  const [confirming, setConfirming] = useState(false);
  const [resent, setResent] = useState<number | null>(null);
  const resending = useResendFailedDeliveries();

  function changeFilters(next: FilterValues) {
    setResent(null);
    setSearch(searchFromFilters(next), { replace: true });
  }

  function resend() {
    resending.mutate(resendBody(filters), {
      onSuccess: (answer) => {
        setResent(answer.resent);
        setConfirming(false);
      },
    });
  }

  const retentionDays = log.data?.pages[0]?.retention_days;

  return (
    <div className="page">
      <div className="page-head">
        <h1>Delivery log</h1>
        {can(session, 'webhooks.manage') && (
          <button
            type="button"
            onClick={() => {
              resending.reset();
              setConfirming(true);
            }}
          >
            Resend failed deliveries in this view
          </button>
        )}
      </div>
      {retentionDays !== undefined && (
        <p className="lead">
          Newest first. Deliveries are kept for {plural(retentionDays, 'day', 'days')}.
        </p>
      )}
      <ErrorNotice error={endpoints.error ?? modules.error} />
      <DeliveryFilterForm
        filters={filters}
        endpoints={endpoints.data ?? []}
        modules={modules.data ?? []}
        onChange={changeFilters}
      />
      {hasFilters(filters) && (
        <p>
          <Link to="/deliveries">Clear the filters</Link>
        </p>
      )}
      {resent !== null && (
        <Notice tone="success">
          {resent === 0
            ? 'No failed deliveries in this view: nothing was resent.'
            : `${plural(resent, 'failed delivery', 'failed deliveries')} resent, each as a new chain of up to 3 attempts.`}
        </Notice>
      )}
      <QueryState query={log} what="deliveries">
        {({ pages }) => (
          <>
            <DeliveryTable
              deliveries={pages.flatMap((page) => page.data)}
              showEndpoint
              caption="Deliveries"
            />
            <LoadMore query={log} label="Load more" />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={confirming}
        title="Resend the failed deliveries in this view?"
        confirmLabel="Resend failed deliveries"
        busy={resending.isPending}
        error={resending.error}
        onConfirm={resend}
        onClose={() => setConfirming(false)}
      >
        <p>
          Every failed delivery matching the filters
          {hasFilters(filters) ? '' : ' (no filters: all of them)'} is sent again as a new chain of
          up to 3 attempts, at most 1,000 per click. Your receivers may see these events twice.
        </p>
      </ConfirmDialog>
    </div>
  );
}
