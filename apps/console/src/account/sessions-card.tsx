import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { QueryState } from '../shared/query-state';
import { sessionQueries, useEndOtherSessions, useEndSession } from './sessions.queries';

/** A User-Agent as a person reads it: the browser and the system, when they can be told. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  // iOS first: its User-Agent says "like Mac OS X" too.
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Windows/.test(userAgent)
      ? 'Windows'
      : /Mac OS X|Macintosh/.test(userAgent)
        ? 'macOS'
        : /Android/.test(userAgent)
          ? 'Android'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

/** The e-mail's sessions in every browser: sign one out, or all but this one. */
export function SessionsCard() {
  const sessions = useQuery(sessionQueries.list());
  const ending = useEndSession();
  const endingOthers = useEndOtherSessions();

  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Your sessions</h2>
      <p className="hint">
        Where you are signed in. Setting a new password signs out all but this one.
      </p>
      <QueryState query={sessions} what="your sessions">
        {(list) => (
          <>
            <div className="table-wrap">
              <table aria-label="Your sessions">
                <thead>
                  <tr>
                    <th>Device</th>
                    <th>Address</th>
                    <th>Last seen</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((session) => (
                    <tr key={session.id}>
                      <td>
                        {deviceOf(session.device)}
                        {session.current && <span className="badge"> This session</span>}
                      </td>
                      <td className="mono">{session.address ?? '—'}</td>
                      <td>{formatDateTime(session.last_seen_at)}</td>
                      <td>
                        {!session.current && (
                          <button
                            type="button"
                            onClick={() => ending.mutate(session.id)}
                            disabled={ending.isPending}
                          >
                            Sign out
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ErrorNotice error={ending.error ?? endingOthers.error} />
            {endingOthers.data && (
              <Notice tone="success">
                {endingOthers.data.signed_out === 1
                  ? 'Signed out 1 other session.'
                  : `Signed out ${endingOthers.data.signed_out} other sessions.`}
              </Notice>
            )}
            <button
              type="button"
              onClick={() => endingOthers.mutate()}
              disabled={endingOthers.isPending || list.every((session) => session.current)}
            >
              Sign out everywhere else
            </button>
          </>
        )}
      </QueryState>
    </section>
  );
}
