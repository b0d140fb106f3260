import { useMemo } from 'react';
import { useMenuStore } from '../stores/menu.ts';

/** The paths of the screens the user may open (the menus granted): a link elsewhere is shown only to those. */
export function useOpenPaths(): Set<string> {
  const flat = useMenuStore((s) => s.flatMenuList);
  return useMemo(() => new Set(flat.map((m) => m.path.replace(/\/+$/, ''))), [flat]);
}
