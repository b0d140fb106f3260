import { matchPath } from 'react-router';
import type { MenuItem } from '@p8/contract/menu';

/** Whether opening the item leaves the app (metaIsLink holds the URL). */
export function isExternal(item: Pick<MenuItem, 'metaIsLink'>): boolean {
  return Boolean(item.metaIsLink && item.metaIsLink.trim());
}

export function openExternal(item: Pick<MenuItem, 'metaIsLink'>): void {
  if (item.metaIsLink) window.open(item.metaIsLink, '_blank', 'noopener,noreferrer');
}

/** The screen whose route matches `pathname` (exact path, then path patterns such as `/x/:id`). */
export function findMenuByPath(flat: readonly MenuItem[], pathname: string): MenuItem | undefined {
  return (
    flat.find((m) => m.path === pathname) ??
    flat.find((m) => m.path.includes(':') && matchPath({ path: m.path, end: true }, pathname) !== null)
  );
}

/** Items from the root down to the item with `path` (empty when not in the tree). */
export function menuChain(tree: readonly MenuItem[], path: string): MenuItem[] {
  for (const item of tree) {
    if (item.path === path) return [item];
    if (item.children?.length) {
      const below = menuChain(item.children, path);
      if (below.length) return [item, ...below];
    }
  }
  return [];
}
