import { describe, expect, it } from 'vitest';
import { columnWidth, headerOnOneLine, searchGrid, searchLayout, tableScrollWidth, textWidth } from './layout.ts';

describe('search form layout', () => {
  it('makes cells of at least 240 px on the form\'s own width, 24 divisible by their number', () => {
    expect(searchGrid(1600)).toEqual({ cell: 4, buttonCells: 2 }); // six fields a row, 267 px each
    expect(searchGrid(1164)).toEqual({ cell: 6, buttonCells: 1 }); // a list beside the side menu at 1440 px
    expect(searchGrid(878)).toEqual({ cell: 8, buttonCells: 1 }); // beside a category panel too
    expect(searchGrid(600)).toEqual({ cell: 12, buttonCells: 1 });
    expect(searchGrid(300)).toEqual({ cell: 24, buttonCells: 1 });
    // Buttons wider than a cell (English texts at 1440 px: 296 px + gutter beside 280 px cells) take two.
    expect(searchGrid(1120, 312)).toEqual({ cell: 6, buttonCells: 2 });
    expect(searchGrid(1120, 240)).toEqual({ cell: 6, buttonCells: 1 });
  });

  it('shows one row when collapsed: fields that fit beside the buttons', () => {
    expect(searchLayout([1, 1, 1, 1, 1, 1, 1], searchGrid(1600), true)).toMatchObject({ visible: 4, collapsible: true, buttonSpan: 8 });
    expect(searchLayout([1, 1, 1, 1, 1], searchGrid(1164), true)).toMatchObject({ visible: 3, buttonSpan: 6, collapsible: true });
    expect(searchLayout([1, 1, 1], searchGrid(878), true)).toMatchObject({ visible: 2, buttonSpan: 8, collapsible: true });
    // One cell a row: one field, the buttons on their own row.
    expect(searchLayout([1, 1], searchGrid(300), true)).toMatchObject({ visible: 1, buttonSpan: 24 });
  });

  it('shows every field when expanded, buttons at the end of the last row', () => {
    expect(searchLayout([1, 1, 1, 1, 1, 1, 1], searchGrid(1600), false)).toMatchObject({ visible: 7, buttonSpan: 20 });
    expect(searchLayout([1, 1, 1, 1], searchGrid(1164), false)).toMatchObject({ visible: 4, buttonSpan: 24 });
    expect(searchLayout([1, 1, 1, 1, 1], searchGrid(1164), false)).toMatchObject({ visible: 5, buttonSpan: 18 });
  });

  it('shows at least the first field when it fills the row alone', () => {
    expect(searchLayout([2, 1, 1], searchGrid(600), true)).toMatchObject({ visible: 1, buttonSpan: 24, collapsible: true });
  });

  it('gives a wide field (date range) two cells, at most a row', () => {
    expect(searchLayout([2, 1], searchGrid(1164), false).spans).toEqual([12, 6]);
    expect(searchLayout([2], searchGrid(600), false).spans).toEqual([24]);
  });

  it('needs no toggle when everything fits in one row', () => {
    expect(searchLayout([1, 1], searchGrid(1164), true)).toMatchObject({ visible: 2, collapsible: false, buttonSpan: 12 });
  });
});

describe('table column widths', () => {
  it('estimates label widths: CJK characters square, Latin narrower', () => {
    expect(textWidth('期初应收')).toBe(56);
    expect(textWidth('Code')).toBe(32);
  });

  it('keeps a numeric column at least as wide as its header on one line', () => {
    // "Opening receivable" with sort arrows needs more than the declared 130 px.
    expect(columnWidth({ title: 'Opening receivable', width: 130, sortable: true, numeric: true })).toBe(32 + 18 * 8 + 24);
    expect(columnWidth({ title: '期初应收', width: 130, sortable: true, numeric: true })).toBe(130);
    expect(columnWidth({ title: 'Qty', numeric: true })).toBe(120);
  });

  it('widens a column of short values aligned right or centre to its header on one line, in either language', () => {
    // The low-level code of the BOM and material lists: 130 px for 低位码, too narrow for its English header.
    expect(columnWidth({ title: 'Low-level code', width: 130, align: 'right' })).toBe(32 + 14 * 8);
    expect(columnWidth({ title: '低位码', width: 130, align: 'right' })).toBe(130);
    expect(columnWidth({ title: 'Serial number', width: 110, align: 'center', sortable: true })).toBe(32 + 13 * 8 + 24);
    expect(columnWidth({ title: 'Remark', width: 90, align: 'left' })).toBe(90);
    // Kept on one line whatever the automatic layout does with the room.
    expect([headerOnOneLine({ align: 'right' }), headerOnOneLine({ align: 'center' }), headerOnOneLine({ numeric: true }), headerOnOneLine({ align: 'left' }), headerOnOneLine({})]).toEqual([true, true, true, false, false]);
  });

  it('keeps a declared width for other columns and derives one for the rest', () => {
    expect(columnWidth({ title: 'A very long remark header', width: 90 })).toBe(90);
    expect(columnWidth({ title: 'Created at', valueType: 'dateTime' })).toBe(170);
    expect(columnWidth({ title: 'Name' })).toBe(100);
    expect(columnWidth({ title: 'Specification and model', sortable: true })).toBe(32 + 23 * 8 + 24);
    expect(columnWidth({ title: '#', valueType: 'index' })).toBe(64);
  });

  it('scrolls by the sum of the columns plus the selection and expand columns', () => {
    expect(tableScrollWidth([130, 200, 210])).toBe(540);
    expect(tableScrollWidth([130, 200, 210], { selection: true, expandable: true })).toBe(540 + 96);
  });
});
