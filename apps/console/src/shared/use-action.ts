import { useCallback, useState } from 'react';

export interface Action<A extends unknown[], R> {
  /** Runs the action: its answer, or null when it failed (the failure is then in `error`). */
  run: (...args: A) => Promise<{ value: R } | null>;
  busy: boolean;
  error: unknown;
  clearError: () => void;
}

/** A button's or form's call to the API: busy while it runs, its failure kept to be shown. */
export function useAction<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
): Action<A, R> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        return { value: await action(...args) };
      } catch (caught) {
        setError(caught);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  const clearError = useCallback(() => setError(null), []);
  return { run, busy, error, clearError };
}
