import { describe, expect, it } from 'vitest';
import { countTree, filterTree, mapTree, parentIds, subtreeIds, toggleChecked, treeIds } from './tree-utils.ts';

interface Node {
  id: number;
  name: string;
  children?: Node[];
}

// company(1) ─ sales(2) ─ east(3)
//            └ finance(4)
const tree: Node[] = [
  {
    id: 1,
    name: 'company',
    children: [
      { id: 2, name: 'sales', children: [{ id: 3, name: 'east' }] },
      { id: 4, name: 'finance' },
    ],
  },
];

describe('tree helpers', () => {
  it('list ids, parents and counts depth first', () => {
    expect(treeIds(tree)).toEqual([1, 2, 3, 4]);
    expect(parentIds(tree)).toEqual([1, 2]);
    expect(countTree(tree)).toBe(4);
  });

  it('find a node and everything below it (the parents a department may not move under)', () => {
    expect([...subtreeIds(tree, 2)].sort()).toEqual([2, 3]);
    expect(subtreeIds(tree, undefined).size).toBe(0);
  });

  it('keep the path to each match and the whole subtree of a match when filtering', () => {
    expect(filterTree(tree, (n) => n.name === 'east')).toEqual([{ ...tree[0], children: [{ ...tree[0].children![0], children: [{ id: 3, name: 'east' }] }] }]);
    expect(treeIds(filterTree(tree, (n) => n.name === 'sales'))).toEqual([1, 2, 3]);
    expect(filterTree(tree, () => false)).toEqual([]);
  });

  it('map a tree without empty children lists', () => {
    expect(mapTree<Node, { v: number; c?: unknown[] }>(tree, (n, c) => ({ v: n.id, c }))).toEqual([
      { v: 1, c: [{ v: 2, c: [{ v: 3, c: undefined }] }, { v: 4, c: undefined }] },
    ]);
  });

  describe('checking with linkage', () => {
    it('checks the subtree and the nodes above (a button needs its screen)', () => {
      expect([...toggleChecked(tree, new Set(), 2, true, true)].sort()).toEqual([1, 2, 3]);
    });

    it('checks only the subtree when linkage must not go up (a department scope)', () => {
      expect([...toggleChecked(tree, new Set(), 2, true, true, false)].sort()).toEqual([2, 3]);
    });

    it('unchecks the subtree and leaves the nodes above (a screen stays without its buttons)', () => {
      expect([...toggleChecked(tree, new Set([1, 2, 3]), 2, false, true)]).toEqual([1]);
    });

    it('changes only the node itself without linkage', () => {
      expect([...toggleChecked(tree, new Set([3]), 2, true, false)].sort()).toEqual([2, 3]);
      expect([...toggleChecked(tree, new Set([2, 3]), 2, false, false)]).toEqual([3]);
    });
  });
});
