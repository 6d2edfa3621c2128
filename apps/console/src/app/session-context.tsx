import type { Session } from '@custodian/console-client';
import {
  type ReactNode,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { onRefusal } from '../api/client';
import { NO_READER, describeFailure } from '../api/failure';
import { getSession } from '../api/session.api';

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

/** Loads the session before any screen, and reloads it whenever the API refuses a request. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<unknown>(null);

  const refresh = useCallback(async () => {
    try {
      setSession(await getSession());
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, []);

  useEffect(() => {
    void refresh();
    return onRefusal(() => void refresh());
  }, [refresh]);

  const value = useMemo(
    () => (session ? { session, refresh, replace: setSession } : null),
    [session, refresh],
  );

  if (!value) {
    return error ? (
      <main className="page page-narrow">
        <h1>Custodian console</h1>
        <p className="notice notice-error" role="alert">
          {describeFailure(error, NO_READER)}
        </p>
        <button type="button" className="button-primary" onClick={() => void refresh()}>
          Try again
        </button>
      </main>
    ) : (
      <p className="loading" role="status">
        Loading the console…
      </p>
    );
  }
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
