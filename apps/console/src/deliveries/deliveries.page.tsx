import type { DeliverySummary } from '@custodian/console-client';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { listDeliveries, resendFailedDeliveries } from '../api/deliveries.api';
import { listEndpoints, listEventModules } from '../api/webhooks.api';
import { useSession } from '../app/session-context';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { plural } from '../shared/format';
import { ErrorNotice, Loading, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { DeliveryFilterForm } from './delivery-filter-form';
import {
  type FilterValues,
  filtersFromSearch,
  hasFilters,
  listQuery,
  resendBody,
  searchFromFilters,
} from './delivery-filters';
import { DeliveryTable } from './delivery-table';

interface Pages {
  deliveries: DeliverySummary[];
  nextCursor: string | null;
  retentionDays: number;
}

export function DeliveriesPage() {
  usePageTitle('Delivery log');
  const { session } = useSession();
  const [search, setSearch] = useSearchParams();
  const searchText = search.toString();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(searchText)), [searchText]);
  const [choices] = useLoad(() => Promise.all([listEndpoints(), listEventModules()]), []);
  const [pages, { update, reload }] = useLoad(async (): Promise<Pages> => {
    const page = await listDeliveries(listQuery(filters));
    return {
      deliveries: page.data,
      nextCursor: page.next_cursor,
      retentionDays: page.retention_days,
    };
  }, [filters]);
  const more = useAction(listDeliveries);
  const [confirming, setConfirming] = useState(false);
  const [resent, setResent] = useState<number | null>(null);
  const resending = useAction(resendFailedDeliveries);

  function changeFilters(next: FilterValues) {
    setResent(null);
    setSearch(searchFromFilters(next), { replace: true });
  }

  async function loadMore(cursor: string) {
    const page = await more.run(listQuery(filters, cursor));
    if (!page) return;
    update((shown) => ({
      ...shown,
      deliveries: [...shown.deliveries, ...page.value.data],
      nextCursor: page.value.next_cursor,
    }));
  }

  async function resend() {
    const answer = await resending.run(resendBody(filters));
    if (!answer) return;
    setResent(answer.value.resent);
    setConfirming(false);
    reload();
  }

  return (
    <div className="page">
      <div className="page-head">
        <h1>Delivery log</h1>
        {can(session, 'webhooks.manage') && (
          <button
            type="button"
            onClick={() => {
              resending.clearError();
              setConfirming(true);
            }}
          >
            Resend failed deliveries in this view
          </button>
        )}
      </div>
      {pages.status === 'ready' && (
        <p className="lead">
          Newest first. Deliveries are kept for {plural(pages.data.retentionDays, 'day', 'days')}.
        </p>
      )}
      {choices.status === 'failed' && <ErrorNotice error={choices.error} />}
      <DeliveryFilterForm
        filters={filters}
        endpoints={choices.status === 'ready' ? choices.data[0] : []}
        modules={choices.status === 'ready' ? choices.data[1] : []}
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
      {pages.status === 'loading' && <Loading what="deliveries" />}
      {pages.status === 'failed' && <ErrorNotice error={pages.error} />}
      {pages.status === 'ready' && (
        <>
          <DeliveryTable deliveries={pages.data.deliveries} showEndpoint caption="Deliveries" />
          <ErrorNotice error={more.error} />
          {pages.data.nextCursor && (
            <button
              type="button"
              className="load-more"
              disabled={more.busy}
              onClick={() => void loadMore(pages.data.nextCursor ?? '')}
            >
              {more.busy ? 'Loading…' : 'Load more'}
            </button>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Resend the failed deliveries in this view?"
        confirmLabel="Resend failed deliveries"
        busy={resending.busy}
        error={resending.error}
        onConfirm={() => void resend()}
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
