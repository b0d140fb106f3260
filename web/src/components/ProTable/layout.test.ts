import { describe, expect, it } from 'vitest';
import { breakpointOf, searchLayout, SEARCH_SPANS } from './layout.ts';

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
