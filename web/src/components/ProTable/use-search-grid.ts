import { useLayoutEffect, useState, type RefObject } from 'react';
import { searchGrid, type SearchGrid } from './layout.ts';

/** The search form's row gutter (SearchForm's `Row gutter`), around the buttons' column. */
const BUTTONS_GUTTER = 16;

/**
 * The search form's grid for the form's own width, following resizes. The form's width, not the
 * window's: beside the side menu, a department tree or a category panel a form is far narrower than the
 * window, and cells laid out for the window cut every input to a few letters ("请输入…"). `buttonsRef`:
 * the search / reset / expand buttons, measured so that their column holds them in either language.
 */
export function useSearchGrid(ref: RefObject<HTMLElement | null>, buttonsRef?: RefObject<HTMLElement | null>): SearchGrid {
  const [grid, setGrid] = useState<SearchGrid>(() => searchGrid(1000));
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const buttons = buttonsRef?.current;
    const measure = () => {
      // A hidden form (search toggled off, a background tab) measures 0: keep the last layout.
      if (element.clientWidth > 0) {
        // The buttons' own width (they never wrap) and the grid's gutter: their texts differ by language.
        const next = searchGrid(element.clientWidth, buttons?.offsetWidth ? buttons.offsetWidth + BUTTONS_GUTTER : undefined);
        setGrid((last) => (last.cell === next.cell && last.buttonCells === next.buttonCells ? last : next));
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (buttons) observer.observe(buttons);
    return () => observer.disconnect();
  }, [ref, buttonsRef]);
  return grid;
}
