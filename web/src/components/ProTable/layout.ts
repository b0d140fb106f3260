/**
 * Responsive layout of the search form: breakpoints 576, 768, 992, 1200, 1400 px and column
 * spans xl 4, lg 6, md 12, sm 12, xs 24 on the 24-column grid (xxl, from 1400 px, keeps xl's span).
 * Collapsed, the form shows one row: as many fields as fit beside the buttons. Pure; tested.
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
