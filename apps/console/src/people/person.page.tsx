import type { Person } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { getLicenseSettings } from '../api/licenses.api';
import { ActivityList } from '../activity/activity-list';
import { HeldSeats } from '../shared/held-seats';
import { BookingsSection } from '../bookings/bookings-section';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime, plural } from '../shared/format';
import { Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QUERY_ROOT } from '../shared/query-keys';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { personQueries, useSavePerson } from './people.queries';
import { PersonHoldings, StillHeld } from './person-holdings';
import { PERSON_STATUS_LABEL } from './person-values';

/** What the page that sent a person here wants said (a save). */
export interface PersonPageNotice {
  notice?: string;
}

export function PersonPage() {
  usePageTitle('Person');
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [arrived] = useState(() => ({
    id,
    notice: (location.state as PersonPageNotice | null)?.notice ?? null,
  }));
  const person = useQuery(personQueries.detail(id));

  // Said once: the history entry forgets it, so a reload or a return here does not repeat it.
  useEffect(() => {
    if (location.state) void navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/people">People</Link>
      </p>
      {arrived.notice && arrived.id === id && <Notice tone="success">{arrived.notice}</Notice>}
      <QueryState query={person} what="the person">
        {(shown) => <PersonDetails person={shown} />}
      </QueryState>
    </div>
  );
}

function PersonDetails({ person }: { person: Person }) {
  const { session } = useSession();
  const manage = can(session, 'people.manage');
  const [confirming, setConfirming] = useState(false);
  const [offboarded, setOffboarded] = useState<string | null>(null);
  const [releaseSeats, setReleaseSeats] = useState<boolean | null>(null);
  // The dialog starts from the workspace's default (GET /settings/licenses).
  const licenceSettings = useQuery({
    queryKey: [QUERY_ROOT.licenseSettings],
    queryFn: getLicenseSettings,
    enabled: can(session, 'licenses.view') && person.seats.length > 0,
  });
  const release = releaseSeats ?? licenceSettings.data?.release_on_offboard ?? false;
  // The seats' checkbox shows once the default is known, so it never flips under a hand.
  const seats = person.seats;
  const offboarding = useSavePerson();

  function offboard() {
    offboarding.mutate(
      {
        id: person.id,
        changes: {
          status: 'inactive',
          ...(seats.length > 0 ? { release_licenses: release } : {}),
        },
      },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          const held = answer.holdings_count;
          const freed = seats.length - answer.seats.length;
          setOffboarded(
            `${answer.full_name} is offboarded.` +
              (freed > 0 ? ` ${plural(freed, 'licence seat', 'licence seats')} released.` : '') +
              (held > 0
                ? ` They still hold ${plural(held, 'asset', 'assets')}: check each in from its page.`
                : ''),
          );
        },
      },
    );
  }

  return (
    <>
      {offboarded && <Notice tone="success">{offboarded}</Notice>}
      <div className="page-head">
        <h1>{person.full_name}</h1>
        <span className={`badge badge-status-${person.status}`}>
          {PERSON_STATUS_LABEL[person.status]}
        </span>
      </div>
      {manage && (
        <div className="actions">
          <Link to={`/people/${person.id}/edit`} className="button">
            Edit
          </Link>
          {person.status === 'active' && (
            <button
              type="button"
              className="button-danger-quiet"
              onClick={() => {
                offboarding.reset();
                setConfirming(true);
              }}
            >
              Offboard
            </button>
          )}
        </div>
      )}

      <dl className="details">
        <dt>E-mail</dt>
        <dd>{person.email ?? <span className="muted">None</span>}</dd>
        <dt>Employee number</dt>
        <dd className="mono">{person.employee_number ?? <span className="muted">None</span>}</dd>
        <dt>Department</dt>
        <dd>{person.department?.name ?? <span className="muted">None</span>}</dd>
        <dt>Location</dt>
        <dd>
          {person.location ? (
            <Link to={`/locations/${person.location.id}`}>{person.location.name}</Link>
          ) : (
            <span className="muted">None</span>
          )}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(person.created_at)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(person.updated_at)}</dd>
      </dl>

      {can(session, 'assets.view') && <PersonHoldings person={person} />}

      {can(session, 'licenses.view') && <HeldSeats seats={person.seats} />}

      {can(session, 'bookings.view') && (
        <BookingsSection
          personId={person.id}
          bookLink={
            can(session, 'bookings.request') && person.status === 'active'
              ? `/bookings/new?person=${person.id}`
              : undefined
          }
        />
      )}

      <ConfirmDialog
        open={confirming}
        title={`Offboard ${person.full_name}?`}
        confirmLabel="Offboard"
        danger
        busy={offboarding.isPending}
        error={offboarding.error}
        onConfirm={offboard}
        onClose={() => setConfirming(false)}
      >
        <p>
          Their status becomes <em>inactive</em>: nothing more can be checked out to them, and the{' '}
          <code>employee.offboarded</code> webhook fires. Editing them can make them active again.
        </p>
        <StillHeld personId={person.id} />
        {seats.length > 0 && !licenceSettings.isLoading && (
          <div className="offboard-seats">
            <p>
              <strong>They hold {plural(seats.length, 'licence seat', 'licence seats')}:</strong>{' '}
              {seats.map((seat) => seat.license.name).join(', ')}.
            </p>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={release}
                onChange={(event) => setReleaseSeats(event.target.checked)}
              />{' '}
              Release {seats.length === 1 ? 'it' : 'them'} with the offboarding
            </label>
          </div>
        )}
      </ConfirmDialog>

      <section className="card" aria-labelledby="person-history">
        <h2 id="person-history">History</h2>
        <ActivityList query={{ record_id: person.id }} />
      </section>
    </>
  );
}
