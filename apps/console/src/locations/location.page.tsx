import type { AssetListQuery, Location } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ActivityList } from '../activity/activity-list';
import { listAssets } from '../api/assets.api';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { Dialog } from '../shared/dialog';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QUERY_ROOT } from '../shared/query-keys';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { LocationForm } from './location-form';
import { childrenOf, holdsText } from './location-values';
import { WHOLE_TREE, locationQueries, useDeleteLocation } from './locations.queries';

const PAGE_SIZE = 25;

export function LocationPage() {
  usePageTitle('Location');
  const { id = '' } = useParams();
  const place = useQuery(locationQueries.detail(id));
  return (
    <div className="page">
      <QueryState query={place} what="the location">
        {(shown) => <LocationDetails key={shown.id} place={shown} />}
      </QueryState>
    </div>
  );
}

function LocationDetails({ place }: { place: Location }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const manage = can(session, 'locations.manage');
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const deleting = useDeleteLocation();
  const tree = useQuery(locationQueries.list(WHOLE_TREE));
  const children = childrenOf(tree.data?.data ?? [], place.id);
  return (
    <>
      <p className="breadcrumb">
        <Link to="/locations">Locations</Link>
        {place.path.map((above) => (
          <span key={above.id}>
            {' › '}
            <Link to={`/locations/${above.id}`}>{above.name}</Link>
          </span>
        ))}
      </p>
      <div className="page-head">
        <h1>{place.name}</h1>
        {manage && (
          <div className="actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>
              Change or move
            </button>
            <button type="button" className="button" onClick={() => setAdding(true)}>
              Add a place in it
            </button>
            <button
              type="button"
              className="button-danger-quiet"
              onClick={() => {
                deleting.reset();
                setConfirming(true);
              }}
            >
              Delete
            </button>
          </div>
        )}
      </div>
      <dl className="details">
        <dt>Inside</dt>
        <dd>
          {place.parent ? (
            <Link to={`/locations/${place.parent.id}`}>{place.parent.name}</Link>
          ) : (
            <span className="muted">Top level</span>
          )}
        </dd>
        <dt>Holds</dt>
        <dd>{holdsText(place)}</dd>
        {place.address && (
          <>
            <dt>Address</dt>
            <dd>{place.address}</dd>
          </>
        )}
        {place.notes && (
          <>
            <dt>Notes</dt>
            <dd className="prewrap">{place.notes}</dd>
          </>
        )}
      </dl>
      {children.length > 0 && (
        <section className="card" aria-labelledby="location-children">
          <h2 id="location-children">Places in it</h2>
          <ul className="plain-list">
            {children.map((child) => (
              <li key={child.id}>
                <Link to={`/locations/${child.id}`}>{child.name}</Link>{' '}
                <span className="muted">{holdsText(child)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <AssetsHere place={place} />
      <section className="card" aria-labelledby="location-history">
        <h2 id="location-history">History</h2>
        <ActivityList query={{ record_id: place.id }} showRecord={false} />
      </section>
      <Dialog open={editing} title={`Change ${place.name}`} onClose={() => setEditing(false)}>
        <LocationForm
          place={place}
          onSaved={() => setEditing(false)}
          onCancel={() => setEditing(false)}
        />
      </Dialog>
      <Dialog open={adding} title={`Add a place in ${place.name}`} onClose={() => setAdding(false)}>
        <LocationForm
          place={null}
          parentId={place.id}
          onSaved={(saved) => {
            setAdding(false);
            void navigate(`/locations/${saved.id}`);
          }}
          onCancel={() => setAdding(false)}
        />
      </Dialog>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${place.name}?`}
        confirmLabel="Delete location"
        danger
        busy={deleting.isPending}
        error={deleting.error}
        onConfirm={() =>
          deleting.mutate(place.id, {
            onSuccess: () =>
              void navigate(place.parent ? `/locations/${place.parent.id}` : '/locations'),
          })
        }
        onClose={() => setConfirming(false)}
      >
        <p>Only an empty place can go: move its assets, people and places elsewhere first.</p>
      </ConfirmDialog>
    </>
  );
}

/** The assets at this place, or also anywhere under it: the assets list filtered by place. */
function AssetsHere({ place }: { place: Location }) {
  const [under, setUnder] = useState(true);
  const [page, setPage] = useState(1);
  const query: AssetListQuery = {
    page,
    pageSize: PAGE_SIZE,
    location_id: place.id,
    include_children: under ? 'true' : 'false',
  };
  const assets = useQuery({
    queryKey: [QUERY_ROOT.assets, 'list', query],
    queryFn: () => listAssets(query),
  });
  return (
    <section className="card" aria-labelledby="location-assets">
      <h2 id="location-assets">Assets here</h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={under}
          onChange={(event) => {
            setUnder(event.target.checked);
            setPage(1);
          }}
        />{' '}
        Include the places in it
      </label>
      <QueryState query={assets} what="the assets here">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Assets here</caption>
                <thead>
                  <tr>
                    <th scope="col">Asset</th>
                    <th scope="col">Serial number</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={3} className="empty">
                        No assets here.
                      </td>
                    </tr>
                  )}
                  {found.data.map((asset) => (
                    <tr key={asset.id}>
                      <th scope="row">
                        <Link to={`/assets/${asset.id}`}>{asset.name}</Link>
                      </th>
                      <td className="mono">{asset.serial_number ?? ''}</td>
                      <td>{asset.status}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['asset', 'assets']}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
