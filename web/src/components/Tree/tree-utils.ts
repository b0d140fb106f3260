/**
 * Helpers for the parent_id trees (departments, menus, categories, districts…): walking, filtering a
 * tree by a search while keeping the path to each match, the keys to expand, the parent choices of a
 * dialog, and the linked checking of the role dialogs (checking a node checks what is below and above it).
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

/** Ids of the nodes that satisfy `test` (default: all of them). */
export function treeIds<T extends TreeItem<T>>(nodes: readonly T[], test: (node: T) => boolean = () => true): number[] {
  const ids: number[] = [];
  walkTree(nodes, (node) => {
    if (test(node)) ids.push(node.id);
  });
  return ids;
}

/** Ids of the nodes that have children: the rows an "expand all" opens. */
export function parentIds<T extends TreeItem<T>>(nodes: readonly T[]): number[] {
  return treeIds(nodes, (node) => !!node.children?.length);
}

export function countTree<T extends TreeItem<T>>(nodes: readonly T[]): number {
  return treeIds(nodes).length;
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

/** Each node's parent id. */
export function parentMap<T extends TreeItem<T>>(nodes: readonly T[]): Map<number, number | null> {
  const parents = new Map<number, number | null>();
  walkTree(nodes, (node, parent) => parents.set(node.id, parent ? parent.id : null));
  return parents;
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

/**
 * The tree cut down to the nodes that match and the path to them; a matching node keeps all its
 * children (a search for a department shows its sub-departments, for a category its sub-categories).
 */
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

/**
 * Checking with parent-child linkage over a tree whose checks are strict (every node its own state):
 * checking a node checks every node below it, and with `up` every node above it too (a granted button
 * needs its screen); unchecking a node unchecks what is below it and leaves the nodes above as they are
 * (a screen may stay granted without its buttons). Without linkage only the node itself changes.
 */
export function toggleChecked<T extends TreeItem<T>>(
  nodes: readonly T[],
  checked: ReadonlySet<number>,
  id: number,
  on: boolean,
  linkage: boolean,
  up = true,
): Set<number> {
  const next = new Set(checked);
  const targets = linkage ? subtreeIds(nodes, id) : new Set([id]);
  for (const target of targets) {
    if (on) next.add(target);
    else next.delete(target);
  }
  if (on && linkage && up) {
    const parents = parentMap(nodes);
    for (let parent = parents.get(id); parent !== undefined && parent !== null; parent = parents.get(parent)) next.add(parent);
  }
  return next;
}
