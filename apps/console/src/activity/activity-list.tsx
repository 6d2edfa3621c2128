import type { ActivityEntry, ActivityQuery } from '@custodian/console-client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDateTime } from '../shared/format';
import { LoadMore } from '../shared/load-more';
import { QueryState } from '../shared/query-state';
import { activityQueries } from './activity.queries';
import {
  actorText,
  changeText,
  nounOf,
  recordLink,
  relatedLink,
  relatedWord,
  verbOf,
} from './activity-text';

const SOURCE_LABEL: Record<ActivityEntry['source'], string> = {
  console: 'Console',
  api: 'API',
  cli: 'CLI',
  system: 'System',
};

/**
 * Entries of the activity feed, newest first, with "Show older" for the next page. Every write
 * in the console invalidates it (shared/query-keys.ts), so a change made on the same screen shows.
 */
export function ActivityList({
  query,
  showRecord = true,
}: {
  query: ActivityQuery;
  /**
   * Off on a record's own page, where an entry is about it; an entry there about another record
   * that names it as related (a maintenance record of the asset) still names its record.
   */
  showRecord?: boolean;
}) {
  const feed = useInfiniteQuery(activityQueries.feed(query));
  return (
    <QueryState query={feed} what="the activity">
      {({ pages }) =>
        pages[0]?.data.length === 0 ? (
          <p className="muted">Nothing has happened here yet.</p>
        ) : (
          <>
            <ol className="activity">
              {pages.flatMap((page) =>
                page.data.map((entry) => (
                  <ActivityItem
                    key={entry.id}
                    entry={entry}
                    showRecord={showRecord || entry.record_id !== query.record_id}
                  />
                )),
              )}
            </ol>
            <LoadMore query={feed} label="Show older" />
          </>
        )
      }
    </QueryState>
  );
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
              {relatedWord(entry)}
              <Link to={relatedLink(entry)}>{entry.related_name}</Link>
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
