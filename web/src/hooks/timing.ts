/**
 * Timing helpers behind the click hooks (click throttle 1 s, debounce 500 ms, long-press 1 s),
 * plain functions so they can be tested without React.
 */
export const THROTTLE_WAIT = 1000;
export const DEBOUNCE_WAIT = 500;
export const LONG_PRESS_DELAY = 1000;

export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  /** Lets the next call through at once. */
  reset: () => void;
}

/**
 * Leading-edge throttle: the first call runs at once, further calls within `wait` ms are dropped
 * (a double click on "save" sends one request).
 */
export function throttle<A extends unknown[]>(fn: (...args: A) => unknown, wait = THROTTLE_WAIT, now: () => number = Date.now): Throttled<A> {
  let last = -Infinity;
  const throttled = ((...args: A) => {
    const at = now();
    if (at - last < wait) return;
    last = at;
    fn(...args);
  }) as Throttled<A>;
  throttled.reset = () => {
    last = -Infinity;
  };
  return throttled;
}

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drops a pending call. */
  cancel: () => void;
  /** Runs a pending call now. */
  flush: () => void;
}

/** Trailing-edge debounce: runs once, `wait` ms after the last call, with the last arguments. */
export function debounce<A extends unknown[]>(fn: (...args: A) => unknown, wait = DEBOUNCE_WAIT): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = () => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) fn(...args);
  };
  const debounced = ((...args: A) => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, wait);
  }) as Debounced<A>;
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  debounced.flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    run();
  };
  return debounced;
}

export interface LongPress {
  /** Pointer (or touch) went down: starts the timer. */
  start: () => void;
  /** Pointer went up or left: stops the timer; returns whether the long press had fired. */
  stop: () => boolean;
}

/** Fires `onLongPress` once the press has lasted `delay` ms; releasing earlier fires nothing. */
export function longPress(onLongPress: () => void, delay = LONG_PRESS_DELAY): LongPress {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fired = false;
  return {
    start() {
      if (timer !== undefined) clearTimeout(timer);
      fired = false;
      timer = setTimeout(() => {
        timer = undefined;
        fired = true;
        onLongPress();
      }, delay);
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const wasFired = fired;
      fired = false;
      return wasFired;
    },
  };
}
