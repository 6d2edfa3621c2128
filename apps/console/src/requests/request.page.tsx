import type { AssetRequest } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { AssetPicker } from '../assets/asset-picker';
import { RangeFields } from './range-fields';
import {
  REQUEST_STATUS_BADGE,
  REQUEST_STATUS_LABEL,
  defaultFulfilment,
  instantOf,
  localInput,
  requestSubject,
} from './request-values';
import { requestQueries, useDecideRequest } from './requests.queries';

export function RequestPage() {
  usePageTitle('Request');
  const { id = '' } = useParams();
  const request = useQuery(requestQueries.detail(id));
  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/requests">Requests</Link>
      </p>
      <QueryState query={request} what="the request">
        {(shown) => <RequestDetails request={shown} />}
      </QueryState>
    </div>
  );
}

function RequestDetails({ request }: { request: AssetRequest }) {
  const { session } = useSession();
  const decision = request.decision;
  return (
    <>
      <div className="page-head">
        <h1>{requestSubject(request)}</h1>
        <span className={`badge ${REQUEST_STATUS_BADGE[request.status]}`}>
          {REQUEST_STATUS_LABEL[request.status]}
        </span>
      </div>
      <section className="card" aria-labelledby="request-title">
        <h2 id="request-title">The request</h2>
        <dl className="details">
          <dt>For</dt>
          <dd>
            <Link to={`/people/${request.person.id}`}>{request.person.name}</Link>
          </dd>
          <dt>Asked for</dt>
          <dd>
            {request.asset ? (
              <Link to={`/assets/${request.asset.id}`}>{requestSubject(request)}</Link>
            ) : (
              requestSubject(request)
            )}
          </dd>
          <dt>When</dt>
          <dd>
            {request.starts_at && request.ends_at
              ? `${formatDateTime(request.starts_at)} – ${formatDateTime(request.ends_at)}`
              : 'Now'}
          </dd>
          <dt>Note</dt>
          <dd>{request.note ?? <span className="muted">—</span>}</dd>
          <dt>Asked</dt>
          <dd>{formatDateTime(request.created_at)}</dd>
        </dl>
      </section>
      {decision && (
        <section className="card" aria-labelledby="decision-title">
          <h2 id="decision-title">{request.status === 'approved' ? 'Approved' : 'Rejected'}</h2>
          <dl className="details">
            <dt>When</dt>
            <dd>{formatDateTime(decision.at)}</dd>
            {decision.asset && (
              <>
                <dt>Asset given</dt>
                <dd>
                  <Link to={`/assets/${decision.asset.id}`}>
                    {decision.asset.name} ({decision.asset.asset_tag})
                  </Link>
                </dd>
                <dt>How</dt>
                <dd>
                  {decision.fulfilled_by === 'booking' ? 'Booked' : 'Checked out'}
                  {decision.booking_id && (
                    <>
                      {' '}
                      (booking <span className="mono">{decision.booking_id}</span>)
                    </>
                  )}
                </dd>
              </>
            )}
            <dt>{request.status === 'rejected' ? 'Reason' : 'Note'}</dt>
            <dd>{decision.note ?? <span className="muted">—</span>}</dd>
          </dl>
        </section>
      )}
      {request.status === 'pending' &&
        (can(session, 'requests.decide') ? (
          <div className="decision-forms">
            <ApproveForm request={request} />
            <RejectForm request={request} />
          </div>
        ) : (
          <Notice>Waiting for a manager to approve or reject it.</Notice>
        ))}
    </>
  );
}

function ApproveForm({ request }: { request: AssetRequest }) {
  const [assetId, setAssetId] = useState(request.asset?.id ?? '');
  const [how, setHow] = useState(defaultFulfilment(request));
  const [from, setFrom] = useState(localInput(request.starts_at));
  const [to, setTo] = useState(localInput(request.ends_at));
  const [due, setDue] = useState(localInput(request.ends_at));
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const deciding = useDecideRequest();

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!assetId) return setProblem('Choose the asset given.');
    const starts = instantOf(from);
    const ends = instantOf(to);
    if (how === 'booking' && (!starts || !ends)) {
      return setProblem('A booking needs the first and the last day and time.');
    }
    const dueAt = instantOf(due);
    deciding.mutate({
      id: request.id,
      approve: {
        asset_id: assetId,
        fulfil_by: how,
        ...(how === 'booking' && starts && ends ? { starts_at: starts, ends_at: ends } : {}),
        ...(how === 'check_out' && dueAt ? { due_at: dueAt } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
    });
  }

  return (
    <form className="card" onSubmit={submit} aria-label="Approve">
      <h2>Approve</h2>
      {request.asset ? (
        <p>
          Gives <strong>{requestSubject(request)}</strong>.
        </p>
      ) : (
        <AssetPicker
          id="approve-asset"
          label={`Asset given (${request.category?.name ?? 'any'})`}
          value={assetId}
          onChange={setAssetId}
          {...(request.category ? { category: request.category.name } : {})}
        />
      )}
      <fieldset>
        <legend>How</legend>
        <div className="choice-row">
          <label className="inline">
            <input
              type="radio"
              name="how"
              checked={how === 'booking'}
              onChange={() => setHow('booking')}
            />
            Book it for the dates
          </label>
          <label className="inline">
            <input
              type="radio"
              name="how"
              checked={how === 'check_out'}
              onChange={() => setHow('check_out')}
            />
            Check it out now
          </label>
        </div>
        {how === 'booking' ? (
          <RangeFields
            id="approve"
            fromLabel="From"
            from={from}
            to={to}
            onFrom={setFrom}
            onTo={setTo}
          />
        ) : (
          <div className="field">
            <label htmlFor="approve-due">Due back (optional)</label>
            <input
              id="approve-due"
              type="datetime-local"
              value={due}
              onChange={(event) => setDue(event.target.value)}
            />
          </div>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor="approve-note">Note (optional)</label>
        <input
          id="approve-note"
          value={note}
          maxLength={500}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={deciding.error} />
      <button type="submit" className="button-primary" disabled={deciding.isPending}>
        {deciding.isPending ? 'Approving…' : 'Approve'}
      </button>
    </form>
  );
}

function RejectForm({ request }: { request: AssetRequest }) {
  const [reason, setReason] = useState('');
  const deciding = useDecideRequest();

  function submit(event: FormEvent) {
    event.preventDefault();
    deciding.mutate({ id: request.id, reject: { note: reason.trim() } });
  }

  return (
    <form className="card" onSubmit={submit} aria-label="Reject">
      <h2>Reject</h2>
      <div className="field">
        <label htmlFor="reject-reason">Reason (shown to whoever asked)</label>
        <textarea
          id="reject-reason"
          value={reason}
          required
          maxLength={500}
          rows={3}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
      <ErrorNotice error={deciding.error} />
      <button
        type="submit"
        className="button-danger"
        disabled={deciding.isPending || !reason.trim()}
      >
        {deciding.isPending ? 'Rejecting…' : 'Reject'}
      </button>
    </form>
  );
}
