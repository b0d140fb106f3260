import { Activity, Fragment, useContext, useState, type ContextType, type ReactNode } from 'react';
import { UNSAFE_LocationContext, useOutlet } from 'react-router';
import { useTabsStore } from '../../stores/tabs.ts';
import { useActiveMenu } from '../menu/use-active-menu.ts';

interface CachedView {
  element: ReactNode;
  /** Refresh sequence the element was cached at; a newer one replaces it (re-mount). */
  seq: number;
  /** The location the view was opened at: a hidden view keeps seeing its own, not the current one. */
  location: ContextType<typeof UNSAFE_LocationContext>;
}

/**
 * The layout's outlet with keep-alive: a route whose menu item has `metaIsKeepAlive` stays mounted
 * (hidden by `<Activity mode="hidden">`, which also pauses its effects) after the user moves on, keyed
 * by full path. Its cache goes when its tab closes; a refresh re-mounts it. Other routes mount afresh.
 */
export default function KeepAliveOutlet() {
  const outlet = useOutlet();
  const locationContext = useContext(UNSAFE_LocationContext);
  const { menu, fullPath } = useActiveMenu();
  const keepAlive = Boolean(menu?.metaIsKeepAlive) && outlet !== null;
  const keepAliveKeys = useTabsStore((s) => s.keepAliveKeys);
  const refreshSeq = useTabsStore((s) => s.refreshSeq);
  const seq = refreshSeq[fullPath] ?? 0;
  const [cache, setCache] = useState<Record<string, CachedView>>({});

  const alive = (key: string) => (key === fullPath ? keepAlive : keepAliveKeys.includes(key));
  const stale = Object.keys(cache).filter((key) => !alive(key) || (cache[key].seq !== (refreshSeq[key] ?? 0) && key !== fullPath));
  const missing = keepAlive && cache[fullPath]?.seq !== seq;
  if (stale.length || missing) {
    // Adjusting state while rendering (React's documented pattern): the cache follows the route.
    setCache((prev) => {
      const next = { ...prev };
      for (const key of stale) delete next[key];
      if (missing) next[fullPath] = { element: outlet, seq, location: locationContext };
      return next;
    });
  }

  return (
    <>
      {Object.entries(cache)
        .filter(([key]) => alive(key))
        .map(([key, view]) => (
          <Activity key={`${key}#${view.seq}`} mode={key === fullPath ? 'visible' : 'hidden'} name={key}>
            <UNSAFE_LocationContext.Provider value={key === fullPath ? locationContext : view.location}>{view.element}</UNSAFE_LocationContext.Provider>
          </Activity>
        ))}
      {!keepAlive && <Fragment key={`${fullPath}#${seq}`}>{outlet}</Fragment>}
    </>
  );
}
