import { useCallback, useEffect, useRef } from 'react';
import { throttle, THROTTLE_WAIT, type Throttled } from './timing.ts';

/**
 * A click handler that runs at most once per `wait` ms (default 1 s): the first click runs,
 * repeated clicks within the window are dropped. The returned function is stable across renders and
 * always calls the latest `fn`.
 */
export function useThrottleFn<A extends unknown[]>(fn: (...args: A) => unknown, wait = THROTTLE_WAIT): (...args: A) => void {
  const latest = useRef(fn);
  const throttled = useRef<{ wait: number; run: Throttled<A> } | null>(null);
  useEffect(() => {
    latest.current = fn;
  });
  return useCallback(
    (...args: A) => {
      if (throttled.current?.wait !== wait) throttled.current = { wait, run: throttle<A>((...a) => latest.current(...a), wait) };
      throttled.current.run(...args);
    },
    [wait],
  );
}

export default useThrottleFn;
