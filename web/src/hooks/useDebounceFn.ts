import { useCallback, useEffect, useMemo, useRef } from 'react';
import { debounce, DEBOUNCE_WAIT, type Debounced } from './timing.ts';

export interface DebouncedFn<A extends unknown[]> {
  /** Call as often as you like: `fn` runs `wait` ms after the last call. */
  run: (...args: A) => void;
  /** Drops a pending call. */
  cancel: () => void;
  /** Runs a pending call now. */
  flush: () => void;
}

/**
 * A function that runs `wait` ms (default 500 ms) after its last call, e.g. a search-as-you-type.
 * Stable across renders, calls the latest `fn`, and drops a pending call on unmount.
 */
export function useDebounceFn<A extends unknown[]>(fn: (...args: A) => unknown, wait = DEBOUNCE_WAIT): DebouncedFn<A> {
  const latest = useRef(fn);
  const debounced = useRef<{ wait: number; run: Debounced<A> } | null>(null);
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(() => () => debounced.current?.run.cancel(), []);
  const run = useCallback(
    (...args: A) => {
      if (debounced.current?.wait !== wait) {
        debounced.current?.run.cancel();
        debounced.current = { wait, run: debounce<A>((...a) => latest.current(...a), wait) };
      }
      debounced.current.run(...args);
    },
    [wait],
  );
  const cancel = useCallback(() => debounced.current?.run.cancel(), []);
  const flush = useCallback(() => debounced.current?.run.flush(), []);
  return useMemo(() => ({ run, cancel, flush }), [run, cancel, flush]);
}

export default useDebounceFn;
