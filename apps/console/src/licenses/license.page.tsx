import type { License, LicenseSeat } from '@custodian/console-client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { revealLicenseKey } from '../api/licenses.api';
import { PersonPicker } from '../assets/person-picker';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDateTime } from '../shared/format';
import { ErrorNotice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { RemindersSection } from '../reminders/reminders-section';
import { ExpiryBadge } from '../shared/expiry-badge';
import { SeatsBar } from './licenses.page';
import { licenseQueries, useDeleteLicense, useSeatChange } from './licenses.queries';

export function LicensePage() {
  usePageTitle('Licence');
  const { id = '' } = useParams();
  const license = useQuery(licenseQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/licenses">Licences</Link>
      </p>
      <QueryState query={license} what="the licence">
        {(shown) => <LicenseDetails license={shown} />}
      </QueryState>
    </div>
  );
}

function LicenseDetails({ license }: { license: License }) {
  const { session } = useSession();
  const manage = can(session, 'licenses.manage');
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const deleting = useDeleteLicense();
  const reveal = useMutation({ mutationFn: () => revealLicenseKey(license.id) });

  return (
    <>
      <div className="page-head">
        <h1>{license.name}</h1>
        <ExpiryBadge expiresOn={license.expires_on} />
      </div>
      {manage && (
        <div className="actions">
          <button type="button" className="button-danger-quiet" onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
      <section className="card" aria-labelledby="license-title">
        <h2 id="license-title">The licence</h2>
        <dl className="details">
          <dt>Vendor</dt>
          <dd>{license.vendor ?? <span className="muted">—</span>}</dd>
          <dt>Seats</dt>
          <dd>
            <SeatsBar license={license} />
          </dd>
          <dt>Last valid day</dt>
          <dd>{license.expires_on ?? <span className="muted">None</span>}</dd>
          <dt>Cost</dt>
          <dd>{license.cost ?? <span className="muted">—</span>}</dd>
          <dt>Notes</dt>
          <dd>{license.notes ?? <span className="muted">—</span>}</dd>
          <dt>Product key</dt>
          <dd>
            {!license.has_product_key ? (
              <span className="muted">None stored</span>
            ) : reveal.data ? (
              <code>{reveal.data.product_key}</code>
            ) : manage ? (
              <button
                type="button"
                className="button-small"
                onClick={() => reveal.mutate()}
                disabled={reveal.isPending}
              >
                Reveal
              </button>
            ) : (
              <span className="muted">Stored</span>
            )}
            <ErrorNotice error={reveal.error} />
          </dd>
          <dt>Added</dt>
          <dd>{formatDateTime(license.created_at)}</dd>
        </dl>
      </section>
      <Seats license={license} manage={manage} />
      {can(session, 'reminders.view') && <RemindersSection about={{ license: license.id }} />}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${license.name}?`}
        confirmLabel="Delete licence"
        danger
        busy={deleting.isPending}
        error={deleting.error}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          deleting.mutate(license.id, { onSuccess: () => void navigate('/licenses') })
        }
      >
        <p>It leaves the list with its seats kept; the API can restore it.</p>
      </ConfirmDialog>
    </>
  );
}

function Seats({ license, manage }: { license: License; manage: boolean }) {
  const seats = useQuery(licenseQueries.seats(license.id));
  const change = useSeatChange();
  return (
    <section className="card" aria-labelledby="seats-title">
      <h2 id="seats-title">Seats</h2>
      <QueryState query={seats} what="the seats">
        {(held) => (
          <table>
            <caption className="visually-hidden">Seats</caption>
            <thead>
              <tr>
                <th scope="col">Held by</th>
                <th scope="col">Since</th>
                {manage && (
                  <th scope="col" className="visually-hidden">
                    Release
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {held.length === 0 && (
                <tr>
                  <td colSpan={manage ? 3 : 2} className="empty">
                    No seat is assigned.
                  </td>
                </tr>
              )}
              {held.map((seat: LicenseSeat) => (
                <tr key={seat.id}>
                  <td>
                    {seat.person ? (
                      <Link to={`/people/${seat.person.id}`}>{seat.person.name}</Link>
                    ) : seat.asset ? (
                      <Link to={`/assets/${seat.asset.id}`}>{seat.asset.name}</Link>
                    ) : null}
                  </td>
                  <td className="nowrap">{formatDateTime(seat.assigned_at)}</td>
                  {manage && (
                    <td>
                      <button
                        type="button"
                        className="button-small"
                        aria-label={`Release the seat of ${seat.person?.name ?? seat.asset?.name ?? ''}`}
                        disabled={change.isPending}
                        onClick={() => change.mutate({ id: license.id, release: seat.id })}
                      >
                        Release
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <ErrorNotice error={change.error} />
      {manage && <AssignSeat license={license} />}
    </section>
  );
}

function AssignSeat({ license }: { license: License }) {
  const [personId, setPersonId] = useState('');
  const assigning = useSeatChange();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!personId) return;
    assigning.mutate(
      { id: license.id, assign: { person_id: personId } },
      { onSuccess: () => setPersonId('') },
    );
  }

  return (
    <form onSubmit={submit} aria-label="Assign a seat">
      <h3>Assign a seat</h3>
      <PersonPicker id="seat-person" label="Person" value={personId} onChange={setPersonId} />
      <ErrorNotice error={assigning.error} />
      <button type="submit" className="button-primary" disabled={assigning.isPending || !personId}>
        {assigning.isPending ? 'Assigning…' : 'Assign'}
      </button>
    </form>
  );
}
