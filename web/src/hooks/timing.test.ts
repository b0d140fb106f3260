import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce, DEBOUNCE_WAIT, longPress, LONG_PRESS_DELAY, throttle, THROTTLE_WAIT } from './timing.ts';

describe('click timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses 1 s throttle, 500 ms debounce and 1 s long press by default', () => {
    expect([THROTTLE_WAIT, DEBOUNCE_WAIT, LONG_PRESS_DELAY]).toEqual([1000, 500, 1000]);
  });

  it('throttle runs the first click and drops the others within 1 s', () => {
    let now = 0;
    const fn = vi.fn();
    const click = throttle(fn, 1000, () => now);
    click('a');
    now = 400;
    click('b');
    now = 999;
    click('c');
    expect(fn.mock.calls).toEqual([['a']]);
    now = 1000;
    click('d');
    expect(fn.mock.calls).toEqual([['a'], ['d']]);
  });

  it('throttle reset lets the next click through at once', () => {
    let now = 0;
    const fn = vi.fn();
    const click = throttle(fn, 1000, () => now);
    click();
    now = 10;
    click.reset();
    click();
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('debounce runs once, 500 ms after the last call, with the last arguments', () => {
    const fn = vi.fn();
    const type = debounce(fn);
    type('p');
    vi.advanceTimersByTime(300);
    type('ph');
    vi.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn.mock.calls).toEqual([['ph']]);
  });

  it('debounce cancel drops the pending call and flush runs it now', () => {
    const fn = vi.fn();
    const type = debounce(fn, 500);
    type(1);
    type.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    type(2);
    type.flush();
    expect(fn.mock.calls).toEqual([[2]]);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('long press fires after 1 s held, not when released earlier', () => {
    const fn = vi.fn();
    const press = longPress(fn);
    press.start();
    vi.advanceTimersByTime(999);
    expect(press.stop()).toBe(false);
    vi.advanceTimersByTime(2000);
    expect(fn).not.toHaveBeenCalled();
    press.start();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(press.stop()).toBe(true);
  });
});
