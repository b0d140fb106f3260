import { useCallback, useEffect, useMemo, useRef, type MouseEvent } from 'react';
import { longPress, LONG_PRESS_DELAY, type LongPress } from './timing.ts';

export interface LongPressHandlers {
  onMouseDown: () => void;
  onMouseUp: () => void;
  onMouseLeave: () => void;
  onTouchStart: () => void;
  onTouchEnd: () => void;
  onTouchCancel: () => void;
  /** Swallows the click that ends a long press, so the element's own click does not fire too. */
  onClickCapture: (event: MouseEvent) => void;
}

/**
 * Long-press handlers (default 1 s) to spread on an element:
 * `<Button {...useLongPress(() => remove())}>`. A shorter press is an ordinary click.
 */
export function useLongPress(onLongPress: () => void, delay = LONG_PRESS_DELAY): LongPressHandlers {
  const latest = useRef(onLongPress);
  const press = useRef<{ delay: number; timer: LongPress } | null>(null);
  const swallowClick = useRef(false);
  useEffect(() => {
    latest.current = onLongPress;
  });
  useEffect(() => () => void press.current?.timer.stop(), []);

  const start = useCallback(() => {
    if (press.current?.delay !== delay) {
      press.current?.timer.stop();
      press.current = { delay, timer: longPress(() => latest.current(), delay) };
    }
    swallowClick.current = false;
    press.current.timer.start();
  }, [delay]);
  const end = useCallback(() => {
    if (press.current) swallowClick.current = press.current.timer.stop();
  }, []);
  const onClickCapture = useCallback((event: MouseEvent) => {
    if (!swallowClick.current) return;
    swallowClick.current = false;
    event.preventDefault();
    event.stopPropagation();
  }, []);

  return useMemo(
    () => ({ onMouseDown: start, onMouseUp: end, onMouseLeave: end, onTouchStart: start, onTouchEnd: end, onTouchCancel: end, onClickCapture }),
    [start, end, onClickCapture],
  );
}

export default useLongPress;
