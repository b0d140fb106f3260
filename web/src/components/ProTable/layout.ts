/**
 * Layout of the list kit, pure and tested: the search form's grid and the table's column and scroll
 * widths.
 *
 * Search form: a 24-column grid whose cells are at least `MIN_CELL` px wide on the form's own width (one
 * to six fields a row); a field takes one cell (a date range two). Collapsed, the form shows one row: as
 * many fields as fit beside the search / reset / expand buttons.
 */

/** Narrowest field cell: label and an input that still shows its placeholder ("请输入客户编码"). */
export const MIN_CELL = 240;
/** Room the search, reset and expand buttons need at least (more when their texts are wider: measured). */
export const BUTTONS_WIDTH = 270;

export interface SearchGrid {
  /** Grid span of one field cell. */
  cell: number;
  /** Cells the buttons take beside the fields. */
  buttonCells: number;
}

/**
 * The grid for a form `width` px wide: as many cells of at least MIN_CELL as fit, 24 divisible by their
 * number. `buttons`: the width the buttons take as shown (with the gutter) — in English "Search / Reset /
 * Expand" are wider than 270 px and would run over the last field beside them.
 */
export function searchGrid(width: number, buttons = BUTTONS_WIDTH): SearchGrid {
  const fit = Math.floor(width / MIN_CELL);
  const perRow = [6, 4, 3, 2, 1].find((n) => n <= fit) ?? 1;
  const cellWidth = width / perRow;
  return { cell: 24 / perRow, buttonCells: Math.min(perRow, Math.max(1, Math.ceil(Math.max(BUTTONS_WIDTH, buttons) / cellWidth))) };
}

export interface SearchLayout {
  /** Grid span of one field cell. */
  cell: number;
  /** Span of every field (a field of `span` n cells takes n × cell, at most a row). */
  spans: number[];
  /** How many fields are shown. */
  visible: number;
  /** Span of the buttons' column: the rest of the last row, or a new full row when too little is left. */
  buttonSpan: number;
  /** Whether the expand/collapse toggle is needed (more fields than one row holds). */
  collapsible: boolean;
}

/**
 * Lays the fields out on a grid: collapsed shows only the fields that fit in the first row beside the
 * buttons; the buttons close the last row, or take a row of their own when too little is left.
 */
export function searchLayout(fieldSpans: readonly number[], grid: SearchGrid, collapsed: boolean): SearchLayout {
  const { cell } = grid;
  const spans = fieldSpans.map((n) => Math.min(24, Math.max(1, n) * cell));
  const buttonMin = Math.min(24, grid.buttonCells * cell);

  // First row: fields that fit beside the buttons.
  let firstRow = 0;
  let used = 0;
  for (const span of spans) {
    if (used + span + buttonMin > 24) break;
    used += span;
    firstRow += 1;
  }
  // A field too wide to share its row (one cell a row, or a date range) still shows, the buttons below it.
  if (firstRow === 0 && spans.length) firstRow = 1;
  const collapsible = firstRow < spans.length;
  const visible = collapsed ? firstRow : spans.length;

  // Where the last shown field ends in its row (fields wrap like a grid).
  let rowUsed = 0;
  for (const span of spans.slice(0, visible)) {
    if (rowUsed + span > 24) rowUsed = 0;
    rowUsed += span;
  }
  const left = 24 - rowUsed;
  const buttonSpan = left >= buttonMin ? left : 24;
  return { cell, spans, visible, buttonSpan, collapsible };
}

/* ---------------------------------------------------------------- table columns */

/** Cell padding (8 + 8 at the small size, 16 + 16 at the default) and the sort arrows of a header. */
const CELL_PADDING = 32;
const SORTER = 24;
/** Width of the selection (checkbox) and expand columns antd adds. */
export const SELECTION_WIDTH = 48;

/**
 * Rough width in px of a text at the table's 14 px font: CJK characters are square (14 px), Latin
 * letters, digits and punctuation about 8 px. An estimate on the generous side, so that a header label
 * gets a column wide enough not to wrap letter by letter.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += char.codePointAt(0)! >= 0x2e80 ? 14 : 8;
  return Math.ceil(width);
}

export interface ColumnShape {
  title: string;
  width?: number | string;
  sortable?: boolean;
  /** Right-aligned number (amount, quantity): never narrower than its header on one line. */
  numeric?: boolean;
  /**
   * A column aligned right or centre shows short values (a figure, a level, a yes / no): like a number's, never
   * narrower than its header on one line — its values cannot be what widens it ("Low-level code" over 0 to 3).
   */
  align?: 'left' | 'right' | 'center' | 'start' | 'end' | 'justify' | 'match-parent';
  valueType?: string;
}

/** What a column without a declared width starts from, by what it shows. */
const DEFAULT_WIDTH: Record<string, number> = { index: 64, date: 110, dateTime: 170 };
const DEFAULT_NUMBER_WIDTH = 120;
const DEFAULT_TEXT_WIDTH = 100;

/**
 * Width of a column: the declared one, or one from what it shows. A numeric column, and any column of short
 * values aligned right or centre, is never narrower than its header label on one line (plus the sort
 * arrows), so its figures sit under a readable title in either language (a width chosen for the Chinese
 * header is widened for a longer English one). The width is where the column starts: the table lays out
 * automatically, so a longer figure still widens its column (numbers do not wrap) instead of being cut.
 */
/**
 * Whether a column's header stays on one line whatever the table does with the room (the class
 * `p8-header-one-line` on its cells): a number's, or a column of short values aligned right or centre. The
 * table lays out automatically, so a wide neighbour (the actions of an English row) would otherwise squeeze
 * such a column below its declared width, down to its header's longest word ("Low-level" / "code").
 */
export function headerOnOneLine(column: Pick<ColumnShape, 'numeric' | 'align'>): boolean {
  return !!column.numeric || column.align === 'right' || column.align === 'end' || column.align === 'center';
}

export function columnWidth(column: ColumnShape): number {
  const header = CELL_PADDING + textWidth(column.title) + (column.sortable ? SORTER : 0);
  const declared = typeof column.width === 'number' ? column.width : undefined;
  if (column.valueType === 'index') return declared ?? DEFAULT_WIDTH.index;
  if (column.numeric) return Math.max(declared ?? DEFAULT_NUMBER_WIDTH, header);
  if (declared !== undefined && headerOnOneLine(column)) return Math.max(declared, header);
  if (declared !== undefined) return declared;
  return Math.max(DEFAULT_WIDTH[column.valueType ?? ''] ?? DEFAULT_TEXT_WIDTH, header);
}

/**
 * The table's scroll width: every column's width plus the selection / expand columns. Wider than the
 * card, the table scrolls sideways and every column — including those under a pinned action column —
 * can be reached; narrower, the table fills the card.
 */
export function tableScrollWidth(widths: readonly number[], extras: { selection?: boolean; expandable?: boolean } = {}): number {
  return widths.reduce((sum, w) => sum + w, 0) + (extras.selection ? SELECTION_WIDTH : 0) + (extras.expandable ? SELECTION_WIDTH : 0);
}
