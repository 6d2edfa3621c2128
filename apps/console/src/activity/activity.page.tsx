import type { ActivityEntry, ActivityQuery } from '@custodian/console-client';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { can } from '../shared/permissions';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { ActivityList } from './activity-list';

type RecordType = ActivityEntry['record_type'];
type Source = ActivityEntry['source'];

const RECORD_TYPES: Array<{ value: RecordType; label: string; needs?: 'keys' | 'webhooks' }> = [
  { value: 'asset', label: 'Assets' },
  { value: 'person', label: 'People' },
  { value: 'member', label: 'Members' },
  { value: 'key', label: 'API keys', needs: 'keys' },
  { value: 'endpoint', label: 'Webhook endpoints', needs: 'webhooks' },
];
const SOURCES: Array<{ value: Source; label: string }> = [
  { value: 'console', label: 'Console' },
  { value: 'api', label: 'API' },
  { value: 'cli', label: 'Admin CLI' },
  { value: 'system', label: 'System' },
];

/** The filters, all in the URL (`?record_type=&source=&action=`), so a view can be shared. */
function queryFromSearch(search: URLSearchParams): ActivityQuery {
  const query: ActivityQuery = {};
  const type = search.get('record_type');
  if (RECORD_TYPES.some((each) => each.value === type)) query.record_type = type as RecordType;
  const source = search.get('source');
  if (SOURCES.some((each) => each.value === source)) query.source = source as Source;
  const action = search.get('action');
  if (action) query.action = action;
  const actor = search.get('actor_id');
  if (actor) query.actor_id = actor;
  return query;
}

/** /activity: every change to the workspace's records, who made it, from where, and when. */
export function ActivityPage() {
  usePageTitle('Activity');
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const paramsText = params.toString();
  const query = useMemo(() => queryFromSearch(new URLSearchParams(paramsText)), [paramsText]);
  const [recordType, setRecordType] = useState<RecordType | ''>(query.record_type ?? '');
  const [source, setSource] = useState<Source | ''>(query.source ?? '');
  const [action, setAction] = useState(query.action ?? '');
  const types = RECORD_TYPES.filter(
    (each) => !each.needs || can(session, each.needs === 'keys' ? 'keys.view' : 'webhooks.view'),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams();
    if (recordType) next.set('record_type', recordType);
    if (source) next.set('source', source);
    if (action.trim()) next.set('action', action.trim());
    if (query.actor_id) next.set('actor_id', query.actor_id);
    setParams(next);
  }

  return (
    <div className="page">
      <h1>Activity</h1>
      <p className="lead">
        Every change to assets, people and members
        {types.length > 3 ? ', API keys and webhook endpoints' : ''}: who made it (a member, an API
        key by name, or the system), from where, and what changed.
      </p>
      <form className="filters filters-activity" onSubmit={submit} role="search">
        <div className="field">
          <label htmlFor="activity-type">Record</label>
          <select
            id="activity-type"
            value={recordType}
            onChange={(event) => setRecordType(event.target.value as RecordType | '')}
          >
            <option value="">All</option>
            {types.map((each) => (
              <option key={each.value} value={each.value}>
                {each.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-source">Source</label>
          <select
            id="activity-source"
            value={source}
            onChange={(event) => setSource(event.target.value as Source | '')}
          >
            <option value="">All</option>
            {SOURCES.map((each) => (
              <option key={each.value} value={each.value}>
                {each.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-action">Action</label>
          <input
            id="activity-action"
            value={action}
            placeholder="e.g. deleted"
            onChange={(event) => setAction(event.target.value)}
          />
        </div>
        <div className="field field-button">
          <button type="submit">Filter</button>
        </div>
      </form>
      <ActivityList query={query} />
    </div>
  );
}
