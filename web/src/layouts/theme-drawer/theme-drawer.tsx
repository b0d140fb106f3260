import type { ReactNode } from 'react';
import { Button, Divider, Drawer, Switch } from 'antd';
import { CheckCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import ColorInput from '../../components/ColorInput/index.tsx';
import { LAYOUTS, PRIMARY_PRESETS, useThemeStore, type LayoutName, type ThemeConfigState } from '../../stores/theme.ts';
import { useThemeDrawer } from '../../hooks/useThemeDrawer.ts';


/** A miniature of each layout: dark blocks are menus, light ones headers, the dashed one the page. */
function LayoutThumb({ name }: { name: LayoutName }) {
  switch (name) {
    case 'vertical':
      return (
        <div className="p8-thumb p8-thumb-row">
          <div className="p8-thumb-aside" />
          <div className="p8-thumb-col">
            <div className="p8-thumb-header" />
            <div className="p8-thumb-main" />
          </div>
        </div>
      );
    case 'classic':
      return (
        <div className="p8-thumb p8-thumb-colflex">
          <div className="p8-thumb-header is-dark" />
          <div className="p8-thumb-row" style={{ flex: 1 }}>
            <div className="p8-thumb-aside is-light" />
            <div className="p8-thumb-main" />
          </div>
        </div>
      );
    case 'transverse':
      return (
        <div className="p8-thumb p8-thumb-colflex">
          <div className="p8-thumb-header is-dark" />
          <div className="p8-thumb-main" />
        </div>
      );
    case 'columns':
      return (
        <div className="p8-thumb p8-thumb-row">
          <div className="p8-thumb-aside is-narrow" />
          <div className="p8-thumb-aside is-light" />
          <div className="p8-thumb-col">
            <div className="p8-thumb-header" />
            <div className="p8-thumb-main" />
          </div>
        </div>
      );
  }
}

type BoolKey = { [K in keyof ThemeConfigState]: ThemeConfigState[K] extends boolean ? K : never }[keyof ThemeConfigState];

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="p8-theme-row">
      <span>{label}</span>
      {children}
    </div>
  );
}

function ThemeSwitch({ field, testId, label, disabled }: { field: BoolKey; testId: string; label: string; disabled?: boolean }) {
  const value = useThemeStore((s) => s[field]);
  const setTheme = useThemeStore((s) => s.setTheme);
  return (
    <Row label={label}>
      <Switch size="small" checked={value} disabled={disabled} onChange={(on) => setTheme(field, on)} data-testid={testId} aria-label={label} />
    </Row>
  );
}

/** Layout and theme settings (theme config); every change is applied and persisted at once. */
export default function ThemeDrawer() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout' });
  const open = useThemeDrawer((s) => s.open);
  const hide = useThemeDrawer((s) => s.hide);
  const layout = useThemeStore((s) => s.layout);
  const primary = useThemeStore((s) => s.primary);
  const breadcrumb = useThemeStore((s) => s.breadcrumb);
  const tabs = useThemeStore((s) => s.tabs);
  const setTheme = useThemeStore((s) => s.setTheme);
  const resetTheme = useThemeStore((s) => s.resetTheme);

  return (
    <Drawer
      open={open}
      onClose={hide}
      title={t('theme.title')}
      size={320}
      className="p8-theme-drawer"
      data-testid="theme-drawer"
      footer={
        <Button block icon={<ReloadOutlined />} onClick={resetTheme} data-testid="theme-reset">
          {t('theme.reset')}
        </Button>
      }
    >
      <Divider plain>{t('theme.layout')}</Divider>
      <div className="p8-layout-picker">
        {LAYOUTS.map((name) => (
            <div
              key={name}
              className={`p8-layout-option ${layout === name ? 'is-active' : ''}`}
              data-testid={`theme-layout-${name}`}
              role="radio"
              aria-checked={layout === name}
              tabIndex={0}
              onClick={() => setTheme('layout', name)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setTheme('layout', name)}
            >
              <LayoutThumb name={name} />
              <span className="p8-layout-option-name">{t(`layoutName.${name}`)}</span>
              {layout === name && <CheckCircleFilled className="p8-layout-option-check" />}
            </div>
        ))}
      </div>

      <Divider plain>{t('theme.global')}</Divider>
      <Row label={t('theme.primary')}>
        <ColorInput value={primary} onChange={(hex) => setTheme('primary', hex)} data-testid="theme-primary" style={{ width: 130 }} />
      </Row>
      <div className="p8-swatches" aria-label={t('theme.presets')}>
        {PRIMARY_PRESETS.map((color) => (
          <button
            key={color}
            type="button"
            className={`p8-swatch ${primary.toUpperCase() === color ? 'is-active' : ''}`}
            style={{ background: color }}
            title={color}
            data-testid={`theme-swatch-${color.slice(1)}`}
            onClick={() => setTheme('primary', color)}
          >
            {primary.toUpperCase() === color && <CheckOutlinedMark />}
          </button>
        ))}
      </div>
      <ThemeSwitch field="isDark" testId="theme-dark" label={t('theme.dark')} />
      <ThemeSwitch field="isGrey" testId="theme-grey" label={t('theme.grey')} />
      <ThemeSwitch field="isWeak" testId="theme-weak" label={t('theme.weak')} />
      <ThemeSwitch field="asideInverted" testId="theme-aside-inverted" label={t('theme.asideInverted')} />

      <Divider plain>{t('theme.interface')}</Divider>
      <ThemeSwitch field="isCollapse" testId="theme-collapse" label={t('theme.collapse')} disabled={layout === 'transverse'} />
      <ThemeSwitch field="breadcrumb" testId="theme-breadcrumb" label={t('theme.breadcrumb')} disabled={layout === 'transverse'} />
      <ThemeSwitch field="breadcrumbIcon" testId="theme-breadcrumb-icon" label={t('theme.breadcrumbIcon')} disabled={!breadcrumb || layout === 'transverse'} />
      <ThemeSwitch field="tabs" testId="theme-tabs" label={t('theme.tabs')} />
      <ThemeSwitch field="tabsIcon" testId="theme-tabs-icon" label={t('theme.tabsIcon')} disabled={!tabs} />
      <ThemeSwitch field="footer" testId="theme-footer" label={t('theme.footer')} />
    </Drawer>
  );
}

function CheckOutlinedMark() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden>
      <path d="M3 8.5l3 3 7-7" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
