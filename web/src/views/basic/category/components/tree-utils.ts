/**
 * Helpers for the parent_id trees of the basic records (categories, districts): walking, search
 * filtering that keeps the path to each match, the rows to expand, the parent choices of a dialog.
 */
/** Tag colours of tree levels 1–4. */
export const LEVEL_COLORS = ['blue', 'cyan', 'geekblue', 'purple'];

export interface TreeItem<T> {
  id: number;
  children?: T[];
}

/** Every node, depth first, with its parent. */
export function walkTree<T extends TreeItem<T>>(nodes: readonly T[], visit: (node: T, parent: T | undefined) => void, parent?: T) {
  for (const node of nodes) {
    visit(node, parent);
    if (node.children?.length) walkTree(node.children, visit, node);
  }
}

/** Ids of the nodes that have children: the rows an "expand all" opens. */
export function parentIds<T extends TreeItem<T>>(nodes: readonly T[]): number[] {
  const ids: number[] = [];
  walkTree(nodes, (node) => {
    if (node.children?.length) ids.push(node.id);
  });
  return ids;
}

export function countTree<T extends TreeItem<T>>(nodes: readonly T[]): number {
  let count = 0;
  walkTree(nodes, () => (count += 1));
  return count;
}

/** The node `id` and every node below it. */
export function subtreeIds<T extends TreeItem<T>>(nodes: readonly T[], id: number | undefined | null): Set<number> {
  const out = new Set<number>();
  if (id === undefined || id === null) return out;
  walkTree(nodes, (node, parent) => {
    if (node.id === id || (parent && out.has(parent.id))) out.add(node.id);
  });
  return out;
}

/** How many levels the subtree of `id` spans (1 for a leaf). */
export function subtreeDepth<T extends TreeItem<T>>(nodes: readonly T[], id: number | undefined | null): number {
  let found: T | undefined;
  walkTree(nodes, (node) => {
    if (node.id === id) found = node;
  });
  const depth = (node: T): number => 1 + Math.max(0, ...(node.children ?? []).map(depth));
  return found ? depth(found) : 1;
}

/** The tree cut down to the nodes that match and the path to them; a matching node keeps its children. */
export function filterTree<T extends TreeItem<T>>(nodes: readonly T[], match: (node: T) => boolean): T[] {
  const out: T[] = [];
  for (const node of nodes) {
    if (match(node)) {
      out.push(node);
      continue;
    }
    const children = node.children ? filterTree(node.children, match) : [];
    if (children.length) out.push({ ...node, children });
  }
  return out;
}

/** The tree with each node mapped; empty `children` arrays are dropped (no expand arrow on leaves). */
export function mapTree<T extends TreeItem<T>, R>(nodes: readonly T[], map: (node: T, children: R[] | undefined) => R): R[] {
  return nodes.map((node) => map(node, node.children?.length ? mapTree(node.children, map) : undefined));
}

/** The names from the root down to `id` ("A / B / C" when joined). */
export function pathOf<T extends TreeItem<T> & { name: string }>(nodes: readonly T[], id: number | null | undefined): string[] {
  if (id === null || id === undefined) return [];
  const parents = new Map<number, T | undefined>();
  const byId = new Map<number, T>();
  walkTree(nodes, (node, parent) => {
    parents.set(node.id, parent);
    byId.set(node.id, node);
  });
  const path: string[] = [];
  for (let node = byId.get(id); node; node = parents.get(node.id)) path.unshift(node.name);
  return path;
}
