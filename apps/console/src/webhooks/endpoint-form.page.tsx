import type { CreatedEndpoint, Endpoint, EventModule } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Dialog } from '../shared/dialog';
import { ErrorNotice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { SecretField } from '../shared/secret-field';
import { usePageTitle } from '../shared/use-page-title';
import { EventPicker } from './event-picker';
import { type EventSelection, eventsToSend, selectionFromEvents } from './event-selection';
import { endpointQueries, useCreateEndpoint, useUpdateEndpoint } from './webhooks.queries';

/** /webhooks/new and /webhooks/:id/edit. */
export function EndpointFormPage() {
  const { id } = useParams();
  usePageTitle(id ? 'Edit endpoint' : 'Add endpoint');
  const modules = useQuery(endpointQueries.events());
  // Read alongside the event keys (an edit needs both); a new endpoint has none to read.
  const endpoint = useQuery({ ...endpointQueries.detail(id ?? ''), enabled: id !== undefined });

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link to="/webhooks">Webhooks</Link>
        {id && (
          <>
            {' / '}
            <Link to={`/webhooks/${id}`}>Endpoint</Link>
          </>
        )}
      </p>
      <h1>{id ? 'Edit endpoint' : 'Add endpoint'}</h1>
      {id === undefined ? (
        <QueryState query={modules} what="the event keys">
          {(events) => <EndpointForm modules={events} endpoint={null} />}
        </QueryState>
      ) : (
        <QueryState query={endpoint} what="the endpoint">
          {(shown) => (
            <QueryState query={modules} what="the event keys">
              {(events) => <EndpointForm modules={events} endpoint={shown} />}
            </QueryState>
          )}
        </QueryState>
      )}
    </div>
  );
}

function EndpointForm({
  modules,
  endpoint,
}: {
  modules: EventModule[];
  endpoint: Endpoint | null;
}) {
  const navigate = useNavigate();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [selection, setSelection] = useState<EventSelection>(() =>
    selectionFromEvents(endpoint?.events ?? ['*']),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedEndpoint | null>(null);
  const creating = useCreateEndpoint();
  const updating = useUpdateEndpoint();
  const busy = creating.isPending || updating.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = eventsToSend(selection);
    setProblem('error' in chosen ? chosen.error : null);
    if ('error' in chosen) return;
    const { events } = chosen;
    const text = description.trim();
    if (!endpoint) {
      const input = { url: url.trim(), events, ...(text && { description: text }) };
      // The answer carries the signing secret, shown once in the dialog below.
      creating.mutate(input, { onSuccess: setCreated });
      return;
    }
    const changes = { url: url.trim(), events, description: text || null };
    updating.mutate(
      { id: endpoint.id, changes },
      { onSuccess: (saved) => void navigate(`/webhooks/${saved.id}`) },
    );
  }

  return (
    <form onSubmit={submit} className="form-wide">
      <div className="field">
        <label htmlFor="endpoint-url">URL</label>
        <input
          id="endpoint-url"
          type="url"
          required
          placeholder="https://example.com/webhooks/custodian"
          aria-describedby="endpoint-url-hint"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <p id="endpoint-url-hint" className="hint">
          Where Custodian sends each event, as an HTTPS POST.
        </p>
      </div>
      <div className="field">
        <label htmlFor="endpoint-description">Description (optional)</label>
        <input
          id="endpoint-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <EventPicker modules={modules} selection={selection} onChange={setSelection} />
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={creating.error ?? updating.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Saving…' : endpoint ? 'Save changes' : 'Add endpoint'}
        </button>
        <Link to={endpoint ? `/webhooks/${endpoint.id}` : '/webhooks'}>Cancel</Link>
      </div>
      <Dialog
        open={created !== null}
        title="Endpoint added"
        onClose={() => void navigate(created ? `/webhooks/${created.id}` : '/webhooks')}
      >
        {created && (
          <>
            <p>
              Every delivery to <span className="mono">{created.url}</span> is signed with this
              secret. Keep it in your receiver’s configuration to verify the signatures; you can
              reveal it again from the endpoint’s page.
            </p>
            <SecretField label="Signing secret" value={created.secret} />
            <div className="actions">
              <button
                type="button"
                className="button-primary"
                onClick={() => void navigate(`/webhooks/${created.id}`)}
              >
                Go to the endpoint
              </button>
            </div>
          </>
        )}
      </Dialog>
    </form>
  );
}
