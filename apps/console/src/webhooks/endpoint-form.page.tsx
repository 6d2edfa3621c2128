import type { CreatedEndpoint, Endpoint, EventModule } from '@custodian/console-client';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { createEndpoint, getEndpoint, listEventModules, updateEndpoint } from '../api/webhooks.api';
import { Dialog } from '../shared/dialog';
import { ErrorNotice, Loading } from '../shared/notices';
import { SecretField } from '../shared/secret-field';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { EventPicker } from './event-picker';
import { type EventSelection, eventsToSend, selectionFromEvents } from './event-selection';

/** /webhooks/new and /webhooks/:id/edit. */
export function EndpointFormPage() {
  const { id } = useParams();
  usePageTitle(id ? 'Edit endpoint' : 'Add endpoint');
  const [loaded] = useLoad(
    () => Promise.all([listEventModules(), id ? getEndpoint(id) : Promise.resolve(null)]),
    [id],
  );

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
      {loaded.status === 'loading' && <Loading what="the event keys" />}
      {loaded.status === 'failed' && <ErrorNotice error={loaded.error} />}
      {loaded.status === 'ready' && (
        <EndpointForm modules={loaded.data[0]} endpoint={loaded.data[1]} />
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
  const saving = useAction(async (events: string[]): Promise<Endpoint> => {
    const text = description.trim();
    if (!endpoint) {
      const answer = await createEndpoint({
        url: url.trim(),
        events,
        ...(text && { description: text }),
      });
      setCreated(answer);
      return answer;
    }
    return updateEndpoint(endpoint.id, { url: url.trim(), events, description: text || null });
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const events = eventsToSend(selection);
    setProblem('error' in events ? events.error : null);
    if ('error' in events) return;
    const saved = await saving.run(events.events);
    if (saved && endpoint) await navigate(`/webhooks/${saved.value.id}`);
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="form-wide">
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
      <ErrorNotice error={saving.error} />
      <div className="actions">
        <button type="submit" className="button-primary" disabled={saving.busy}>
          {saving.busy ? 'Saving…' : endpoint ? 'Save changes' : 'Add endpoint'}
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
