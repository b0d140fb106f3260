import { useSyncExternalStore } from 'react';
import { breakpointOf, type Breakpoint } from './layout.ts';

/** The search-form breakpoint of the window (576 / 768 / 992 / 1200 / 1400 px), following resizes. */
function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

const snapshot = (): Breakpoint => breakpointOf(window.innerWidth);
const serverSnapshot = (): Breakpoint => 'xl';

export function useSearchBreakpoint(): Breakpoint {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
