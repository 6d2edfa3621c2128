import type { ActivityEntry, ActivityQuery } from '@custodian/console-client';
import { useState } from 'react';
import { Link } from 'react-router';
import { listActivity } from '../api/activity.api';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Loading } from '../shared/notices';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { actorText, changeText, nounOf, recordLink, verbOf } from './activity-text';

const SOURCE_LABEL: Record<ActivityEntry['source'], string> = {
  console: 'Console',
  api: 'API',
  cli: 'CLI',
  system: 'System',
};

/**
 * Entries of the activity feed, newest first, with "Show older" for the next page. `reloadKey`
 * reloads it (a change made on the same screen, which is in the feed the moment it commits).
 */
export function ActivityList({
  query,
  reloadKey,
  showRecord = true,
}: {
  query: ActivityQuery;
  reloadKey?: string;
  /** Off on a record's own page, where every entry is about it. */
  showRecord?: boolean;
}) {
  const [first] = useLoad(() => listActivity(query), [JSON.stringify(query), reloadKey]);
  const [older, setOlder] = useState<{ data: ActivityEntry[]; next: string | null } | null>(null);
  const loading = useAction((before: string) => listActivity({ ...query, before }));
  const [shownFor, setShownFor] = useState(first);
  if (shownFor !== first) {
    setShownFor(first);
    setOlder(null);
  }

  if (first.status === 'loading') return <Loading what="the activity" />;
  if (first.status === 'failed') return <ErrorNotice error={first.error} />;
  const entries = [...first.data.data, ...(older?.data ?? [])];
  const next = older ? older.next : first.data.next;

  async function more() {
    if (!next) return;
    const answer = await loading.run(next);
    if (answer) {
      setOlder((shown) => ({
        data: [...(shown?.data ?? []), ...answer.value.data],
        next: answer.value.next,
      }));
    }
  }

  if (entries.length === 0) return <p className="muted">Nothing has happened here yet.</p>;
  return (
    <>
      <ol className="activity">
        {entries.map((entry) => (
          <ActivityItem key={entry.id} entry={entry} showRecord={showRecord} />
        ))}
      </ol>
      <ErrorNotice error={loading.error} />
      {next && (
        <button
          type="button"
          className="load-more"
          disabled={loading.busy}
          onClick={() => void more()}
        >
          {loading.busy ? 'Loading…' : 'Show older'}
        </button>
      )}
    </>
  );
}

/** How the person concerned joins the sentence: "checked out to", "checked in from". */
function relatedWord(action: string): string {
  if (action === 'checked_in') return ' from ';
  if (action === 'overdue') return ', held by ';
  return ' to ';
}

function ActivityItem({ entry, showRecord }: { entry: ActivityEntry; showRecord: boolean }) {
  const link = recordLink(entry);
  const name = entry.record_name ?? entry.record_id;
  // "ana@example.com joined the workspace": the record is the actor.
  const joinedThemselves = entry.action === 'joined' && entry.actor.id === entry.record_id;
  return (
    <li className="activity-entry">
      <div className="activity-line">
        <span className="activity-what">
          <span className="activity-who">{actorText(entry)}</span> {verbOf(entry)}
          {showRecord && !joinedThemselves && (
            <>
              {' '}
              {nounOf(entry)} {link ? <Link to={link}>{name}</Link> : <strong>{name}</strong>}
            </>
          )}
          {entry.related_name && entry.related_id && (
            <>
              {relatedWord(entry.action)}
              <Link to={`/people/${entry.related_id}`}>{entry.related_name}</Link>
            </>
          )}
        </span>
        <span className={`badge badge-source badge-source-${entry.source}`}>
          {SOURCE_LABEL[entry.source]}
        </span>
        <time className="activity-time muted" dateTime={entry.at}>
          {formatDateTime(entry.at)}
        </time>
      </div>
      {entry.changes.length > 0 && (
        <ul className="activity-changes">
          {entry.changes.map((change) => (
            <li key={change.field}>{changeText(change, formatDateTime)}</li>
          ))}
        </ul>
      )}
    </li>
  );
}
