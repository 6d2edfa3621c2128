import type { PersonListQuery, PersonStatus } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { type ListView, useListView } from '../shared/list-view';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { personQueries } from './people.queries';
import {
  PERSON_STATUSES,
  PERSON_STATUS_LABEL,
  isPersonStatus,
  peopleExportHref,
} from './person-values';

const PAGE_SIZE = 50;

/** The API's query for the list view in the URL: the key of its page in the cache. */
function listQuery(view: ListView<PersonStatus>): PersonListQuery {
  const query: PersonListQuery = { page: view.page, pageSize: PAGE_SIZE };
  if (view.search) query.search = view.search;
  if (view.status) query.status = view.status;
  return query;
}

export function PeoplePage() {
  usePageTitle('People');
  const { session } = useSession();
  const [view, show] = useListView(isPersonStatus);
  const people = useQuery(personQueries.list(listQuery(view)));
  const [typed, setTyped] = useState(view.search);
  const [status, setStatus] = useState<PersonStatus | ''>(view.status ?? '');

  function submit(event: FormEvent) {
    event.preventDefault();
    show({ search: typed.trim(), status: status || null, sort: null, page: 1 });
  }

  const filtered = view.search !== '' || view.status !== null;

  return (
    <div className="page">
      <div className="page-head">
        <h1>People</h1>
        <div className="actions">
          <a className="button" href={peopleExportHref(view.search, view.status)} download>
            Export CSV
          </a>
          {can(session, 'imports.manage') && (
            <Link to="/imports?type=people" className="button">
              Import CSV
            </Link>
          )}
          {can(session, 'people.manage') && (
            <Link to="/people/new" className="button button-primary">
              Add person
            </Link>
          )}
        </div>
      </div>
      <p className="lead">Everyone equipment is issued to, with or without a login.</p>
      <form className="filters filters-people" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="people-search">Search</label>
          <input
            id="people-search"
            type="search"
            maxLength={200}
            value={typed}
            placeholder="Name, e-mail or employee number"
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="people-status">Status</label>
          <select
            id="people-status"
            value={status}
            onChange={(event) => setStatus(event.target.value as PersonStatus | '')}
          >
            <option value="">Any</option>
            {PERSON_STATUSES.map((value) => (
              <option key={value} value={value}>
                {PERSON_STATUS_LABEL[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-button">
          <button type="submit">Show</button>
        </div>
      </form>
      {filtered && (
        <p>
          <Link
            to="/people"
            onClick={() => {
              setTyped('');
              setStatus('');
            }}
          >
            Clear the search
          </Link>
        </p>
      )}
      <QueryState query={people} what="people">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">People</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Employee number</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={5} className="empty">
                        {filtered ? 'Nobody matches.' : 'No people yet.'}
                      </td>
                    </tr>
                  )}
                  {found.data.map((person) => (
                    <tr key={person.id} className={person.status === 'active' ? '' : 'row-muted'}>
                      <td>
                        <Link to={`/people/${person.id}`}>{person.full_name}</Link>
                      </td>
                      <td>{PERSON_STATUS_LABEL[person.status]}</td>
                      <td>{person.email ?? <span className="muted">—</span>}</td>
                      <td className="mono">{person.employee_number ?? ''}</td>
                      <td className="nowrap">{formatDateTime(person.updated_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={view.page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['person', 'people']}
              onPage={(page) => show({ ...view, page })}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
