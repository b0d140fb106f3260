import { describe, expect, it } from 'vitest';
import { breakpointOf, columnWidth, searchLayout, SEARCH_SPANS, tableScrollWidth, textWidth } from './layout.ts';

describe('search form layout', () => {
  it('breaks at 576, 768, 992, 1200 and 1400 px', () => {
    expect([575, 576, 767, 768, 991, 992, 1199, 1200, 1399, 1400].map(breakpointOf)).toEqual(['xs', 'sm', 'sm', 'md', 'md', 'lg', 'lg', 'xl', 'xl', 'xxl']);
  });

  it('spans xl 4, lg 6, md 12, sm 12, xs 24', () => {
    expect(SEARCH_SPANS).toMatchObject({ xl: 4, lg: 6, md: 12, sm: 12, xs: 24 });
  });

  it('shows one row when collapsed: fields that fit beside the buttons', () => {
    // xl: cells of 4, buttons take two cells → four single fields fit.
    const xl = searchLayout([1, 1, 1, 1, 1, 1, 1], 'xl', true);
    expect(xl).toMatchObject({ visible: 4, collapsible: true, buttonSpan: 8 });
    // lg: cells of 6, buttons take two → two fields and the buttons.
    expect(searchLayout([1, 1, 1, 1, 1], 'lg', true)).toMatchObject({ visible: 2, buttonSpan: 12, collapsible: true });
    // md: cells of 12 → one field and the buttons.
    expect(searchLayout([1, 1, 1], 'md', true)).toMatchObject({ visible: 1, buttonSpan: 12 });
    // xs: one field, buttons on their own row.
    expect(searchLayout([1, 1], 'xs', true)).toMatchObject({ visible: 1, buttonSpan: 24 });
  });

  it('shows every field when expanded, buttons at the end of the last row', () => {
    expect(searchLayout([1, 1, 1, 1, 1, 1, 1], 'xl', false)).toMatchObject({ visible: 7, buttonSpan: 20 });
    expect(searchLayout([1, 1, 1, 1], 'lg', false)).toMatchObject({ visible: 4, buttonSpan: 24 });
    expect(searchLayout([1, 1, 1, 1, 1], 'lg', false)).toMatchObject({ visible: 5, buttonSpan: 18 });
  });

  it('shows at least the first field when it fills the row alone', () => {
    expect(searchLayout([2, 1, 1], 'md', true)).toMatchObject({ visible: 1, buttonSpan: 24, collapsible: true });
  });

  it('gives a wide field (date range) two cells, at most a row', () => {
    const layout = searchLayout([2, 1], 'lg', false);
    expect(layout.spans).toEqual([12, 6]);
    expect(searchLayout([2], 'md', false).spans).toEqual([24]);
  });

  it('needs no toggle when everything fits in one row', () => {
    expect(searchLayout([1, 1], 'xl', true)).toMatchObject({ visible: 2, collapsible: false, buttonSpan: 16 });
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
