import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Dialog } from '../shared/dialog';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { LocationForm } from './location-form';
import { WHOLE_TREE, locationQueries } from './locations.queries';

/** Locations as a tree: each place under its parent, with what it holds. */
export function LocationsPage() {
  usePageTitle('Locations');
  const { session } = useSession();
  const navigate = useNavigate();
  const tree = useQuery(locationQueries.list(WHOLE_TREE));
  const [adding, setAdding] = useState(false);

  return (
    <div className="page">
      <div className="page-head">
        <h1>Locations</h1>
        {can(session, 'locations.manage') && (
          <div className="actions">
            <button type="button" className="button-primary" onClick={() => setAdding(true)}>
              Add location
            </button>
          </div>
        )}
      </div>
      <p className="lead">
        Where things are: sites, buildings, floors and rooms, up to 8 levels deep. Assets and people
        each have one place; audits walk a place and what is under it.
      </p>
      <QueryState query={tree} what="locations">
        {(found) => (
          <>
            <div className="table-wrap">
              <table className="tree-table">
                <caption className="visually-hidden">Locations</caption>
                <thead>
                  <tr>
                    <th scope="col">Place</th>
                    <th scope="col">Places in it</th>
                    <th scope="col">Assets</th>
                    <th scope="col">People</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={4} className="empty">
                        No locations yet.
                      </td>
                    </tr>
                  )}
                  {found.data.map((place) => (
                    <tr key={place.id}>
                      <th scope="row" style={{ paddingLeft: `${0.75 + place.depth * 1.5}rem` }}>
                        <Link to={`/locations/${place.id}`}>{place.name}</Link>
                        {place.address && <span className="muted"> · {place.address}</span>}
                      </th>
                      <td>{place.children_count}</td>
                      <td>{place.asset_count}</td>
                      <td>{place.people_count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {found.total > found.data.length && (
              <p className="hint">
                The first {found.data.length} of {found.total} places are shown.
              </p>
            )}
          </>
        )}
      </QueryState>
      <Dialog open={adding} title="Add location" onClose={() => setAdding(false)}>
        <LocationForm
          place={null}
          onSaved={(saved) => {
            setAdding(false);
            void navigate(`/locations/${saved.id}`);
          }}
          onCancel={() => setAdding(false)}
        />
      </Dialog>
    </div>
  );
}
