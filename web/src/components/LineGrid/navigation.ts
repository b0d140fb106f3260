/**
 * Keyboard moves of the line grid, pure: from a cell and a key to the cell to focus, a row to add or a
 * row to remove. Cells are `[row, column]` pairs of the cells that take the focus, in reading order.
 */
export type GridMove = 'next' | 'previous' | 'insert' | 'remove';

export type GridTarget =
  | { kind: 'focus'; row: number; column: number }
  | { kind: 'add'; row: number; column: number }
  | { kind: 'remove'; row: number; focusRow: number };

export interface GridMoveInput {
  cells: ReadonlyArray<readonly [number, number]>;
  at: readonly [number, number];
  move: GridMove;
  /** Rows in the grid. */
  rows: number;
  /** Whether a row may be added (the grid makes new rows and is not full). */
  canAdd: boolean;
  canRemove: (row: number) => boolean;
}

/** Where a key takes the focus, or null when it does nothing here (the key then does what it does). */
export function cellTarget({ cells, at, move, rows, canAdd, canRemove }: GridMoveInput): GridTarget | null {
  const [row] = at;
  const firstColumn = (r: number) => cells.find(([cr]) => cr === r)?.[1] ?? cells[0]?.[1] ?? 0;
  if (move === 'insert') return canAdd ? { kind: 'add', row: row + 1, column: firstColumn(row) } : null;
  if (move === 'remove') {
    if (!canRemove(row)) return null;
    // The focus stays on the row that takes the removed one's place, or the new last row.
    return { kind: 'remove', row, focusRow: Math.max(0, Math.min(row, rows - 2)) };
  }
  const index = cells.findIndex(([r, c]) => r === at[0] && c === at[1]);
  if (index < 0) return null;
  if (move === 'previous') {
    const before = cells[index - 1];
    return before ? { kind: 'focus', row: before[0], column: before[1] } : null;
  }
  const after = cells[index + 1];
  if (after) return { kind: 'focus', row: after[0], column: after[1] };
  // Past the last cell: a new row, when the grid makes them.
  return canAdd && row === rows - 1 ? { kind: 'add', row: rows, column: firstColumn(row) } : null;
}
