import { describe, expect, it } from 'vitest';
import { cellTarget, type GridMoveInput } from './navigation.ts';

// Two rows; each has editable cells in columns 1 and 3.
const cells: Array<[number, number]> = [
  [0, 1],
  [0, 3],
  [1, 1],
  [1, 3],
];
const base: Omit<GridMoveInput, 'at' | 'move'> = { cells, rows: 2, canAdd: true, canRemove: () => true };

describe('line grid keyboard', () => {
  it('Enter moves to the next cell, across the end of a row', () => {
    expect(cellTarget({ ...base, at: [0, 1], move: 'next' })).toEqual({ kind: 'focus', row: 0, column: 3 });
    expect(cellTarget({ ...base, at: [0, 3], move: 'next' })).toEqual({ kind: 'focus', row: 1, column: 1 });
  });

  it('Shift+Enter moves back, and does nothing in the first cell', () => {
    expect(cellTarget({ ...base, at: [1, 1], move: 'previous' })).toEqual({ kind: 'focus', row: 0, column: 3 });
    expect(cellTarget({ ...base, at: [0, 1], move: 'previous' })).toBeNull();
  });

  it('Enter past the last cell adds a row and goes to its first cell, unless the grid may not add', () => {
    expect(cellTarget({ ...base, at: [1, 3], move: 'next' })).toEqual({ kind: 'add', row: 2, column: 1 });
    expect(cellTarget({ ...base, canAdd: false, at: [1, 3], move: 'next' })).toBeNull();
  });

  it('Alt+Enter inserts a row below the current one', () => {
    expect(cellTarget({ ...base, at: [0, 3], move: 'insert' })).toEqual({ kind: 'add', row: 1, column: 1 });
    expect(cellTarget({ ...base, canAdd: false, at: [0, 3], move: 'insert' })).toBeNull();
  });

  it('Alt+Delete removes the current row and keeps the focus in the grid, unless the row is locked', () => {
    expect(cellTarget({ ...base, at: [1, 3], move: 'remove' })).toEqual({ kind: 'remove', row: 1, focusRow: 0 });
    expect(cellTarget({ ...base, at: [0, 1], move: 'remove' })).toEqual({ kind: 'remove', row: 0, focusRow: 0 });
    expect(cellTarget({ ...base, canRemove: (r) => r !== 0, at: [0, 1], move: 'remove' })).toBeNull();
  });
});
