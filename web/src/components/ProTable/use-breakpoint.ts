import { useLayoutEffect, useState, type RefObject } from 'react';
import { breakpointOf, type Breakpoint } from './layout.ts';

/**
 * The search-form breakpoint (576 / 768 / 992 / 1200 / 1400 px) of the form's own width, following
 * resizes. The form's width, not the window's: beside the side menu, a category panel or in a drawer a
 * form is far narrower than the window, and cells laid out for the window cut every input to a few
 * letters ("请输入…").
 */
export function useSearchBreakpoint(ref: RefObject<HTMLElement | null>): Breakpoint {
  const [breakpoint, setBreakpoint] = useState<Breakpoint>(() => breakpointOf(typeof window === 'undefined' ? 1200 : window.innerWidth));
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      // A hidden form (search toggled off, a background tab) measures 0: keep the last layout.
      if (element.clientWidth > 0) setBreakpoint(breakpointOf(element.clientWidth));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return breakpoint;
}
