import { useMemo, type CSSProperties } from 'react';
import { theme } from 'antd';
import { useGlobalStore } from '../stores/global.ts';
import { useThemeStore } from '../stores/theme.ts';

/**
 * CSS variables of the shell. The variables carry antd tokens into layout.css, so the
 * shell follows the primary colour and dark mode without its own palette.
 */
export function useLayoutVars(): CSSProperties {
  const { token } = theme.useToken();
  const isDark = useThemeStore((s) => s.isDark);
  return useMemo(() => ({
    '--p8-primary': token.colorPrimary,
    '--p8-primary-bg': token.colorPrimaryBg,
    '--p8-primary-hover': token.colorPrimaryHover,
    '--p8-bg': token.colorBgContainer,
    '--p8-bg-layout': token.colorBgLayout,
    '--p8-bg-elevated': token.colorBgElevated,
    '--p8-border': token.colorBorderSecondary,
    '--p8-fill': token.colorFillTertiary,
    '--p8-fill-2': token.colorFillSecondary,
    '--p8-text': token.colorText,
    '--p8-text-2': token.colorTextSecondary,
    '--p8-text-3': token.colorTextTertiary,
    '--p8-radius': `${token.borderRadius}px`,
    '--p8-radius-lg': `${token.borderRadiusLG}px`,
    '--p8-shadow': token.boxShadowTertiary,
    '--p8-inverted-bg': isDark ? '#141414' : '#191a23',
  }) as CSSProperties, [token, isDark]);
}

/** Class, CSS variables and menu theme of a layout's root element. */
export function useLayoutRoot(name: string): { className: string; style: CSSProperties; menuTheme: 'light' | 'dark' } {
  const style = useLayoutVars();
  const maximize = useThemeStore((s) => s.maximize);
  const asideInverted = useThemeStore((s) => s.asideInverted);
  const isDark = useThemeStore((s) => s.isDark);
  const inverted = asideInverted || isDark;
  const asideWidth = useAsideWidth();
  const className = ['p8-layout', `p8-layout-${name}`, maximize ? 'is-maximize' : '', isDark ? 'is-dark' : ''].filter(Boolean).join(' ');
  return { className, style: { ...style, '--p8-aside-w': `${asideWidth}px` } as CSSProperties, menuTheme: inverted ? 'dark' : 'light' };
}

/**
 * Width of the side menu. English titles run about a third longer than Chinese ones ("Storage
 * locations", "Bills of materials" under a group's indent), so the English menu is wider; a title
 * still too long ends in an ellipsis and shows whole in its tooltip (`NavMenu`). `sub`: the second
 * column of the columns layout, whose items have no group indent.
 */
export function useAsideWidth(sub = false): number {
  const language = useGlobalStore((s) => s.language);
  return (sub ? 200 : 220) + (language === 'en' ? 32 : 0);
}
