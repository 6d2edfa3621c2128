import type { Session } from '@custodian/console-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Fragment,
  type ReactNode,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
} from 'react';
import { useNavigate } from 'react-router';
import { onRefusal } from '../api/client';
import { NO_READER, describeFailure } from '../api/failure';
import { getSession, signOut } from '../api/session.api';

/** The session's own query: never stale by time, read again on a refusal or after a sign-out. */
const SESSION_KEY = ['session'] as const;

interface SessionContextValue {
  session: Session;
  /** Reads the session again (after a 401 or 403, a sign-out). */
  refresh: () => Promise<void>;
  /** Takes the session a sign-in or a workspace switch answered with. */
  replace: (session: Session) => void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession is used outside SessionProvider');
  return value;
}

/**
 * Whose data the query cache may hold: the person, the workspace and the role. When it changes
 * (sign-in, sign-out, a workspace switch, a role changed by someone else) every cached answer is
 * dropped, so nothing read in one workspace, or by a higher role, shows in the next.
 */
export function cacheScope(session: Session): string {
  if (!session.signed_in) return 'signed-out';
  const { email, workspace, member } = session;
  return JSON.stringify([email, workspace?.id ?? null, member?.id ?? null, member?.role ?? null]);
}

/**
 * Loads the session before any screen, and reloads it whenever the API refuses a request. Its
 * children are mounted anew for each cache scope: no screen keeps state from the previous one.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: SESSION_KEY,
    queryFn: () => getSession(),
    staleTime: Infinity,
  });

  const replace = useCallback(
    (next: Session) => {
      const shown = queryClient.getQueryData<Session>(SESSION_KEY);
      if (shown && cacheScope(shown) !== cacheScope(next)) {
        // Before the new session renders anything: the screens then read afresh.
        queryClient.removeQueries({ predicate: (cached) => cached.queryKey[0] !== SESSION_KEY[0] });
        queryClient.getMutationCache().clear();
      }
      queryClient.setQueryData(SESSION_KEY, next);
    },
    [queryClient],
  );

  const refresh = useCallback(async () => {
    // A failed read keeps the session shown; the screen's own request says what failed.
    const next = await getSession().catch(() => null);
    if (next) replace(next);
  }, [replace]);

  useEffect(() => onRefusal(() => void refresh()), [refresh]);

  const session = query.data;
  const value = useMemo(
    () => (session ? { session, refresh, replace } : null),
    [session, refresh, replace],
  );

  if (!value) {
    return query.isError ? (
      <main className="page page-narrow">
        <h1>Custodian console</h1>
        <p className="notice notice-error" role="alert">
          {describeFailure(query.error, NO_READER)}
        </p>
        <button type="button" className="button-primary" onClick={() => void query.refetch()}>
          Try again
        </button>
      </main>
    ) : (
      <p className="loading" role="status">
        Loading the console…
      </p>
    );
  }
  return (
    <SessionContext.Provider value={value}>
      <Fragment key={cacheScope(value.session)}>{children}</Fragment>
    </SessionContext.Provider>
  );
}

/**
 * Sign out, then read the session again (which empties the cache) and go to sign in. A failed
 * sign-out goes on the same way: the session read says whether it is still open.
 */
export function useSignOut() {
  const { refresh } = useSession();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => signOut(),
    onSettled: async () => {
      await refresh();
      await navigate('/sign-in');
    },
  });
}
