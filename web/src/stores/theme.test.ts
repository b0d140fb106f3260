import { describe, expect, it } from 'vitest';
import { buildAntdTheme, DEFAULT_PRIMARY } from './theme.ts';

describe('antd theme', () => {
  it('keeps antd motion unless the system asks to reduce motion', () => {
    expect(buildAntdTheme({ primary: DEFAULT_PRIMARY, isDark: false }).token?.motion).toBe(true);
    expect(buildAntdTheme({ primary: DEFAULT_PRIMARY, isDark: true }, true).token?.motion).toBe(false);
  });
});
