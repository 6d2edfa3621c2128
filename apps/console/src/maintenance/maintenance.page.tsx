import type { MaintenanceListQuery, MaintenanceStatus } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type ListView, useListView } from '../shared/list-view';
import { Pager } from '../shared/pager';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { MaintenanceTable } from './maintenance-parts';
import { isMaintenanceStatus } from './maintenance-values';
import { maintenanceQueries } from './maintenance.queries';

const PAGE_SIZE = 50;

/** The tab shown: open unless the URL says resolved. */
function shownStatus(view: ListView<MaintenanceStatus>): MaintenanceStatus {
  return view.status ?? 'open';
}

function listQuery(view: ListView<MaintenanceStatus>): MaintenanceListQuery {
  return { status: shownStatus(view), page: String(view.page), pageSize: String(PAGE_SIZE) };
}

/** Every asset's maintenance records, open or resolved, newest first. */
export function MaintenancePage() {
  usePageTitle('Maintenance');
  const [view, show] = useListView(isMaintenanceStatus);
  const status = shownStatus(view);
  const records = useQuery(maintenanceQueries.list(listQuery(view)));

  return (
    <div className="page">
      <div className="page-head">
        <h1>Maintenance</h1>
      </div>
      <p className="lead">
        Repairs, services, inspections and upgrades of assets. Log one from the asset’s page.
      </p>
      <nav className="tabs" aria-label="Maintenance status">
        <Link to="/maintenance" aria-current={status === 'open' ? 'page' : undefined}>
          Open
        </Link>
        <Link
          to="/maintenance?status=resolved"
          aria-current={status === 'resolved' ? 'page' : undefined}
        >
          Resolved
        </Link>
      </nav>
      <QueryState query={records} what="maintenance records">
        {(found) => (
          <>
            <MaintenanceTable
              records={found.data}
              empty={status === 'open' ? 'Nothing is in maintenance.' : 'Nothing resolved yet.'}
              showAsset
            />
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['record', 'records']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
