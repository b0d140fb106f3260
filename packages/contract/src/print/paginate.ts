/**
 * The paginator: which lines of a bill go on which printed page. Pure and linear in the number of lines
 * (a 5,000-line bill paginates in milliseconds), so the preview, the print and the tests agree.
 *
 * A page holds, between its header and footer bands, the table's header row (repeated on every page), as
 * many whole lines as fit, and at its foot either the page's subtotal row (every page but the last) or the
 * grand total row (the last page). A line is never cut: one that does not fit goes to the next page. A line
 * taller than a whole page's room (which the renderer prevents by clamping, see `clampRowHeight`) still
 * gets a page of its own rather than stopping the bill. A roll of receipt paper is one page as long as the
 * bill.
 */

export interface PaginateInput {
  /** Each line's height, in order (millimetres). */
  rowHeights: readonly number[];
  /** The room between the header and footer bands on one page (millimetres). */
  bodyHeight: number;
  /** The table's header row, on every page. */
  headHeight: number;
  /** The subtotal row at the foot of each page but the last; 0 when the template shows none. */
  subtotalHeight: number;
  /** The grand total row on the last page; 0 when the template shows none. */
  totalHeight: number;
  /** A continuous roll: one page, whatever its length. */
  roll?: boolean;
}

export interface PageSlice {
  /** The lines `from` (inclusive) to `to` (exclusive). */
  from: number;
  to: number;
  /** The last page: it carries the grand total; every other page its subtotal. */
  last: boolean;
}

/** The pages of a table. There is always at least one page (a bill without lines prints its header and total). */
export function paginate(input: PaginateInput): PageSlice[] {
  const { rowHeights: h, bodyHeight, headHeight, subtotalHeight, totalHeight } = input;
  const n = h.length;
  if (input.roll) return [{ from: 0, to: n, last: true }];
  const room = bodyHeight - headHeight;
  const pages: PageSlice[] = [];
  let i = 0;
  for (;;) {
    // Do the remaining lines fit with the grand total? Then this is the last page.
    let used = 0;
    let j = i;
    while (j < n && used + h[j] <= room - totalHeight + 1e-9) used += h[j++];
    if (j === n) {
      pages.push({ from: i, to: n, last: true });
      return pages;
    }
    // Otherwise as many lines as fit with the page's subtotal.
    used = 0;
    j = i;
    while (j < n && used + h[j] <= room - subtotalHeight + 1e-9) used += h[j++];
    // All of them fit with a subtotal but not with the total: the last line goes over with the total.
    if (j === n) j = n - 1;
    // A line taller than the page's room gets the page to itself.
    if (j === i) j = i + 1;
    pages.push({ from: i, to: j, last: false });
    i = j;
  }
}

/** The tallest a line may be for it to fit on one page with the table's header and a subtotal or total row. */
export function clampRowHeight(height: number, input: Omit<PaginateInput, 'rowHeights' | 'roll'>): number {
  return Math.min(height, input.bodyHeight - input.headHeight - Math.max(input.subtotalHeight, input.totalHeight));
}

/** One typographic point in millimetres. */
export const PT = 25.4 / 72;
/** A printed line of text: its font size times this (line-height). */
export const LINE_HEIGHT = 1.3;
/** A table cell's padding, top and bottom together and left and right together (millimetres). */
export const CELL_PADDING = { vertical: 1, horizontal: 1.6 };
/** The table's ruling (millimetres): each row takes one more of it (collapsed borders). */
export const CELL_BORDER = 0.2;
/** One CSS pixel in millimetres: row heights are whole pixels, so that a long table adds up exactly. */
export const PIXEL = 25.4 / 96;

/** A row's height for `lines` lines of text at `fontSize` pt: the text, the padding, the ruling, up to a whole pixel. */
export function linesHeight(lines: number, fontSize: number): number {
  return Math.ceil((lines * fontSize * PT * LINE_HEIGHT + CELL_PADDING.vertical + CELL_BORDER) / PIXEL - 1e-9) * PIXEL;
}

/** Whether a character prints a full em wide (CJK ideographs, kana, hangul, full-width forms). */
export const wide = (code: number) =>
  (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) || (code >= 0xffe0 && code <= 0xffe6) || code >= 0x20000;

/**
 * How many lines a text takes in a cell `width` mm wide at `fontSize` pt, the browser breaking anywhere
 * (the printed cells say `word-break: break-all`): an upper estimate, a full em per wide character and
 * 0.62 em per other one, so the height given to the row is never short of what the text needs.
 */
export function textLines(text: string, width: number, fontSize: number): number {
  const room = Math.max(width - CELL_PADDING.horizontal, 1) / (fontSize * PT);
  let lines = 1;
  let used = 0;
  for (const ch of text) {
    if (ch === '\n') {
      lines++;
      used = 0;
      continue;
    }
    const w = wide(ch.codePointAt(0)!) ? 1 : 0.62;
    if (used + w > room + 1e-9 && used > 0) {
      lines++;
      used = 0;
    }
    used += w;
  }
  return lines;
}

/** A table row's height: its tallest cell's lines (each cell's text in its column's width). */
export function rowHeight(cells: readonly string[], widths: readonly number[], fontSize: number): number {
  let most = 1;
  for (let c = 0; c < cells.length; c++) most = Math.max(most, textLines(cells[c], widths[c], fontSize));
  return linesHeight(most, fontSize);
}

/** The smallest a table header's text is shrunk to (points) for its longest word to fit its column. */
export const MIN_HEADER_FONT = 5;
/** A space between words, in em (an upper estimate, as the letters' 0.62). */
const SPACE = 0.35;

interface HeaderWord {
  w: number;
  space: boolean;
  line: boolean;
  wide: boolean;
}

/**
 * A header's words with their widths in em: runs of letters between spaces, each wide (CJK) character a word
 * of its own (the browser breaks between them), `space` whether a space comes before it, `line` whether a
 * line break does, `wide` a CJK character.
 */
function headerWords(text: string): HeaderWord[] {
  const words: HeaderWord[] = [];
  let space = false;
  let line = false;
  let open = false;
  for (const ch of text) {
    if (ch === '\n' || ch === ' ' || ch === '\t') {
      if (ch === '\n') line = true;
      else space = true;
      open = false;
      continue;
    }
    const isWide = wide(ch.codePointAt(0)!);
    if (open && !isWide && !words[words.length - 1].wide) words[words.length - 1].w += 0.62;
    else words.push({ w: isWide ? 1 : 0.62, space, line, wide: isWide });
    open = true;
    space = false;
    line = false;
  }
  return words;
}

/**
 * The font size a table header prints at in a column `width` mm wide: the table's, or smaller when its longest
 * word (an English header, "Quantity") would not fit the column at that size — headers break between words
 * only (print.css), never inside one. A CJK header breaks between any two characters, so it is never shrunk.
 */
export function headerFontSize(text: string, width: number, fontSize: number): number {
  const longest = headerWords(text).reduce((most, word) => Math.max(most, word.w), 0);
  if (!longest) return fontSize;
  const fits = Math.max(width - CELL_PADDING.horizontal, 1) / (longest * PT);
  return fits >= fontSize ? fontSize : Math.max(MIN_HEADER_FONT, Math.floor(fits * 10) / 10);
}

/**
 * How many lines a table header takes in a column `width` mm wide at `fontSize` pt, broken between words only
 * (and between CJK characters): an upper estimate, as `textLines`.
 */
export function headerLines(text: string, width: number, fontSize: number): number {
  const room = Math.max(width - CELL_PADDING.horizontal, 1) / (fontSize * PT);
  let lines = 1;
  let used = 0;
  for (const word of headerWords(text)) {
    if (word.line) {
      lines++;
      used = 0;
    }
    const need = used + (used > 0 && word.space ? SPACE : 0) + word.w;
    if (used > 0 && need > room + 1e-9) {
      lines++;
      used = word.w;
    } else used = need;
  }
  return lines;
}

/** The table's header row: each label at its `headerFontSize`, the row as tall as its tallest label. */
export function headerRow(labels: readonly string[], widths: readonly number[], fontSize: number): { height: number; fontSizes: number[] } {
  const fontSizes = labels.map((label, c) => headerFontSize(label, widths[c], fontSize));
  let height = linesHeight(1, fontSize);
  for (let c = 0; c < labels.length; c++) height = Math.max(height, linesHeight(headerLines(labels[c], widths[c], fontSizes[c]), fontSizes[c]));
  return { height, fontSizes };
}
