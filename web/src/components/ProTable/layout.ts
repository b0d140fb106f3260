/**
 * Layout of the list kit, pure and tested: the search form's responsive grid and the table's column and
 * scroll widths.
 *
 * Search form: breakpoints 576, 768, 992, 1200, 1400 px (of the form's own width) and column
 * spans xl 4, lg 6, md 12, sm 12, xs 24 on the 24-column grid (xxl, from 1400 px, keeps xl's span).
 * Collapsed, the form shows one row: as many fields as fit beside the buttons.
 */
export type Breakpoint = 'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl';

export const BREAKPOINTS: ReadonlyArray<[Breakpoint, number]> = [
  ['xxl', 1400],
  ['xl', 1200],
  ['lg', 992],
  ['md', 768],
  ['sm', 576],
];

export const SEARCH_SPANS: Record<Breakpoint, number> = { xs: 24, sm: 12, md: 12, lg: 6, xl: 4, xxl: 4 };

export function breakpointOf(width: number): Breakpoint {
  for (const [name, min] of BREAKPOINTS) if (width >= min) return name;
  return 'xs';
}

export interface SearchLayout {
  /** Grid span of one field cell at this breakpoint. */
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
 * Lays the fields out for a breakpoint: collapsed shows only the fields that fit in the first row beside
 * the buttons; the buttons close the last row, or take a row of their own when too little is left.
 */
export function searchLayout(fieldSpans: readonly number[], breakpoint: Breakpoint, collapsed: boolean): SearchLayout {
  const cell = SEARCH_SPANS[breakpoint];
  const spans = fieldSpans.map((n) => Math.min(24, Math.max(1, n) * cell));
  // Search, reset and expand need about 300 px: two cells where a cell is a quarter of the width or
  // less (lg, xl, xxl), else one.
  const buttonMin = cell <= 6 ? 2 * cell : cell;

  // First row: fields that fit beside the buttons.
  let firstRow = 0;
  let used = 0;
  for (const span of spans) {
    if (used + span + buttonMin > 24) break;
    used += span;
    firstRow += 1;
  }
  // A field too wide to share its row (xs, or a date range at md) still shows, the buttons below it.
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
  valueType?: string;
}

/** What a column without a declared width starts from, by what it shows. */
const DEFAULT_WIDTH: Record<string, number> = { index: 64, date: 110, dateTime: 170 };
const DEFAULT_NUMBER_WIDTH = 120;
const DEFAULT_TEXT_WIDTH = 100;

/**
 * Width of a column: the declared one, or one from what it shows. A numeric column is never narrower
 * than its header label on one line (plus the sort arrows), so its right-aligned figures sit under a
 * readable title. The width is where the column starts: the table lays out automatically, so a longer
 * figure still widens its column (numbers do not wrap) instead of being cut.
 */
export function columnWidth(column: ColumnShape): number {
  const header = CELL_PADDING + textWidth(column.title) + (column.sortable ? SORTER : 0);
  const declared = typeof column.width === 'number' ? column.width : undefined;
  if (column.valueType === 'index') return declared ?? DEFAULT_WIDTH.index;
  if (column.numeric) return Math.max(declared ?? DEFAULT_NUMBER_WIDTH, header);
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
