import { useCallback, useEffect, useRef, useState } from 'react';

export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; error: unknown };

export interface LoadControls<T> {
  /** Loads again, keeping what is shown until the answer comes. */
  reload: () => void;
  /** Changes the loaded data in place (after a write answered with the new row). */
  update: (change: (data: T) => T) => void;
}

/**
 * Loads data for a screen when it mounts and whenever `deps` change; an answer that arrives
 * after the screen moved on is dropped.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
): [Loaded<T>, LoadControls<T>] {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const shownGeneration = useRef(generation);

  useEffect(() => {
    let current = true;
    const isReload = shownGeneration.current !== generation;
    shownGeneration.current = generation;
    if (!isReload) setState({ status: 'loading' });
    load().then(
      (data) => current && setState({ status: 'ready', data }),
      (error: unknown) => current && setState({ status: 'failed', error }),
    );
    return () => {
      current = false;
    };
    // `load` is a new function on every render; what it reads is listed in `deps`.
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const update = useCallback(
    (change: (data: T) => T) =>
      setState((previous) =>
        previous.status === 'ready' ? { status: 'ready', data: change(previous.data) } : previous,
      ),
    [],
  );
  return [state, { reload, update }];
}
