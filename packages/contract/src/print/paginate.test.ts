import { describe, expect, it } from 'vitest';
import { clampRowHeight, headerFontSize, headerLines, headerRow, linesHeight, MIN_HEADER_FONT, paginate, PT, rowHeight, textLines, CELL_PADDING, type PaginateInput, type PageSlice } from './paginate.ts';

/** A small deterministic generator (mulberry32), so a failure names a seed that repeats it. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sum = (values: readonly number[]) => values.reduce((s, v) => s + v, 0);

/** Every property a pagination must have, checked on one outcome. */
function checkPages(input: PaginateInput, pages: PageSlice[], label: string) {
  const { rowHeights: h, bodyHeight, headHeight, subtotalHeight, totalHeight } = input;
  const room = bodyHeight - headHeight;
  expect(pages.length, label).toBeGreaterThan(0);
  // Every line once, in order: the pages follow on from each other.
  expect(pages[0].from, label).toBe(0);
  expect(pages.at(-1)!.to, label).toBe(h.length);
  for (let p = 1; p < pages.length; p++) expect(pages[p].from, label).toBe(pages[p - 1].to);
  // Only the last page is last; every other page holds at least one line.
  pages.forEach((page, p) => {
    expect(page.last, label).toBe(p === pages.length - 1);
    if (!page.last) expect(page.to, label).toBeGreaterThan(page.from);
  });
  for (const page of pages) {
    const lines = h.slice(page.from, page.to);
    const foot = page.last ? totalHeight : subtotalHeight;
    // No line cut: the header row, the page's whole lines and its subtotal or total fit in the room —
    // unless the page holds one line that is taller than any page could be.
    const oversize = lines.length === 1 && lines[0] > room - foot;
    if (!oversize) expect(headHeight + sum(lines) + foot, `${label} page ${page.from}-${page.to}`).toBeLessThanOrEqual(bodyHeight + 1e-6);
    // Not wasteful: a page ends only where the next line would not fit (or to carry the last line over to the total).
    if (!page.last && !oversize) {
      const next = h[page.to];
      const carried = page.to === h.length - 1 && sum(lines) + next <= room - subtotalHeight + 1e-6;
      expect(carried || sum(lines) + next > room - subtotalHeight - 1e-6, `${label} page ${page.from}-${page.to} ends early`).toBe(true);
    }
  }
}

describe('paginate', () => {
  it('keeps every line whole, in order, with the header, subtotals and total on each page — over random row heights', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const rnd = random(seed);
      const n = Math.floor(rnd() * 300);
      // Mostly ordinary lines, some wrapped over several text lines, a few taller than a page.
      const rowHeights = Array.from({ length: n }, () => {
        const r = rnd();
        return r < 0.8 ? 4 + rnd() * 3 : r < 0.98 ? 8 + rnd() * 30 : 150 + rnd() * 200;
      });
      const input: PaginateInput = {
        rowHeights,
        bodyHeight: 60 + rnd() * 200,
        headHeight: 4 + rnd() * 6,
        subtotalHeight: rnd() < 0.2 ? 0 : 4 + rnd() * 4,
        totalHeight: rnd() < 0.2 ? 0 : 4 + rnd() * 12,
      };
      checkPages(input, paginate(input), `seed ${seed}`);
    }
  });

  it('gives a table that fits one page, and a bill without lines, a single last page', () => {
    const base = { bodyHeight: 200, headHeight: 6, subtotalHeight: 5, totalHeight: 5 };
    expect(paginate({ ...base, rowHeights: [5, 5, 5] })).toEqual([{ from: 0, to: 3, last: true }]);
    expect(paginate({ ...base, rowHeights: [] })).toEqual([{ from: 0, to: 0, last: true }]);
  });

  it('carries the last line over when it fits beside a subtotal but not beside the taller total', () => {
    // Room 100 - 10 = 90: nine lines of 10 fit with a subtotal of 0, not with a total of 10.
    const pages = paginate({ rowHeights: Array(9).fill(10), bodyHeight: 100, headHeight: 10, subtotalHeight: 0, totalHeight: 10 });
    expect(pages).toEqual([
      { from: 0, to: 8, last: false },
      { from: 8, to: 9, last: true },
    ]);
  });

  it('prints a roll of receipt paper as one page', () => {
    expect(paginate({ rowHeights: Array(500).fill(5), bodyHeight: 100, headHeight: 5, subtotalHeight: 5, totalHeight: 5, roll: true })).toEqual([{ from: 0, to: 500, last: true }]);
  });

  it('clamps a line to the tallest a page can hold', () => {
    const room = { bodyHeight: 100, headHeight: 10, subtotalHeight: 5, totalHeight: 8 };
    expect(clampRowHeight(500, room)).toBe(82);
    expect(clampRowHeight(20, room)).toBe(20);
  });

  it('measures 2,750 lines and paginates them in well under a second', () => {
    const rnd = random(2750);
    const widths = [8, 60, 15, 20, 25, 30];
    const lines = Array.from({ length: 2750 }, (_, i) => [
      String(i + 1),
      `${'螺丝钉组件'.repeat(1 + Math.floor(rnd() * 4))} M${Math.floor(rnd() * 20)} stainless steel`,
      '个',
      (rnd() * 1000).toFixed(2),
      (rnd() * 100).toFixed(4),
      (rnd() * 100000).toFixed(2),
    ]);
    const started = Date.now();
    const rowHeights = lines.map((cells) => rowHeight(cells, widths, 9));
    const pages = paginate({ rowHeights, bodyHeight: 230, headHeight: 6, subtotalHeight: 5, totalHeight: 5 });
    const took = Date.now() - started;
    expect(took).toBeLessThan(500);
    expect(pages.length).toBeGreaterThan(50);
    checkPages({ rowHeights, bodyHeight: 230, headHeight: 6, subtotalHeight: 5, totalHeight: 5 }, pages, '2750 lines');
  });
});

describe('text lines', () => {
  it('counts wide characters as an em and breaks where the cell is full', () => {
    // 9 pt: an em is 3.175 mm; a 33.35 mm cell (1.6 mm padding) holds 10 ideographs a line.
    expect(textLines('一二三四五六七八九十', 33.35, 9)).toBe(1);
    expect(textLines('一二三四五六七八九十一', 33.35, 9)).toBe(2);
    expect(textLines('', 20, 9)).toBe(1);
    expect(textLines('a\nb', 20, 9)).toBe(2);
    expect(textLines('x'.repeat(100), 20, 9)).toBeGreaterThan(textLines('x'.repeat(50), 20, 9));
  });

  it('makes a row as tall as its tallest cell', () => {
    const one = rowHeight(['a', 'b'], [20, 20], 10);
    expect(rowHeight(['a', '一二三四五六七八九十一二三四五六七八九十'], [20, 20], 10)).toBeGreaterThan(one * 2);
  });
});

describe('table headers', () => {
  // A column 12 mm wide at 9 pt has room for (12 − 1.6) / (9 × PT) ≈ 3.66 em: five letters of 0.62 em.
  it('breaks an English header between its words only, each word on a line when two do not fit', () => {
    expect(headerLines('Unit price', 40, 9)).toBe(1);
    expect(headerLines('Unit price', 14, 9)).toBe(2);
    expect(headerLines('Tax incl. unit price', 20, 9)).toBeGreaterThan(2);
    // A line break in the label is kept.
    expect(headerLines('Unit\nprice', 40, 9)).toBe(2);
  });

  it('shrinks a header whose longest word does not fit its column, so that the word is never cut in two', () => {
    expect(headerFontSize('Qty', 12, 9)).toBe(9);
    const size = headerFontSize('Quantity', 12, 9);
    expect(size).toBeLessThan(9);
    // At that size the word fits the column's room, as one line.
    expect(8 * 0.62 * size * PT).toBeLessThanOrEqual(12 - CELL_PADDING.horizontal + 1e-9);
    expect(headerLines('Quantity', 12, size)).toBe(1);
    // Never below the smallest size, however narrow the column.
    expect(headerFontSize('Specification', 4, 9)).toBe(MIN_HEADER_FONT);
  });

  it('breaks a Chinese header between any two characters, never shrinking it', () => {
    expect(headerFontSize('含税单价金额', 8, 9)).toBe(9);
    expect(headerLines('含税单价金额', 8, 9)).toBe(textLines('含税单价金额', 8, 9));
  });

  it('makes the header row as tall as its tallest label, each at its own size', () => {
    const row = headerRow(['#', 'Quantity', 'Unit price'], [8, 12, 14], 9);
    expect(row.fontSizes[0]).toBe(9);
    expect(row.fontSizes[1]).toBeLessThan(9);
    expect(row.height).toBe(linesHeight(2, 9));
  });
});
