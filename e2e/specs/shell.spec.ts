import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('shell');
});
afterAll(async () => {
  await suite?.close();
});

const LAYOUTS = ['vertical', 'classic', 'transverse', 'columns'] as const;

async function openThemeDrawer(page: Page) {
  await page.getByTestId('header-theme').click();
  await page.locator('.p8-theme-drawer .ant-drawer-body').waitFor();
}

async function closeThemeDrawer(page: Page) {
  await page.locator('.p8-theme-drawer .ant-drawer-close').click();
  await page.locator('.p8-theme-drawer .ant-drawer-body').waitFor({ state: 'hidden' });
}

const persisted = (page: Page, key: string) =>
  page.evaluate((k) => (JSON.parse(localStorage.getItem(k) ?? '{}') as { state?: Record<string, unknown> }).state ?? {}, key);

describe('layouts (theme drawer)', () => {
  it('switches between the four layouts, each rendering its own shell', async () => {
    const page = await suite.signedInPage(DEMO);
    await page.getByTestId('layout-vertical').waitFor();
    for (const name of [...LAYOUTS.slice(1), LAYOUTS[0]]) {
      await openThemeDrawer(page);
      await page.getByTestId(`theme-layout-${name}`).click();
      await page.getByTestId(`layout-${name}`).waitFor();
      expect(await page.getByTestId(`theme-layout-${name}`).getAttribute('aria-checked')).toBe('true');
      await closeThemeDrawer(page);
      for (const other of LAYOUTS.filter((n) => n !== name)) expect(await page.getByTestId(`layout-${other}`).count()).toBe(0);
      // The shell keeps working in every layout: menu, tabs and the home screen.
      await page.getByTestId('tabs-bar').waitFor();
      await page.getByTestId('home-page').waitFor();
      await screenshot(page, `layout-${name}`);
    }
  });

  it('keeps the chosen layout after a reload', async () => {
    const page = await suite.signedInPage(DEMO);
    await openThemeDrawer(page);
    await page.getByTestId('theme-layout-columns').click();
    await page.getByTestId('layout-columns').waitFor();
    await page.reload();
    await page.getByTestId('layout-columns').waitFor();
    expect((await persisted(page, 'p8-theme')).layout).toBe('columns');
  });
});

describe('theme', () => {
  it('applies a primary colour and dark mode at once and keeps them after a reload', async () => {
    const page = await suite.signedInPage(DEMO);
    await openThemeDrawer(page);
    const selectedMenuBg = () => page.locator('.ant-menu-item-selected').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    const isRed = (rgb: string) => {
      const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number);
      return r > 150 && g < 80 && b < 80;
    };

    const primary = page.getByTestId('theme-primary');
    await primary.fill('#F5222D');
    await primary.press('Enter');
    const cssPrimary = () => page.evaluate(() => document.documentElement.style.getPropertyValue('--p8-primary'));
    await waitUntil(cssPrimary, (v) => v.toUpperCase() === '#F5222D', 'the primary colour on <html>');
    // antd components follow the primary colour: the selected menu item.
    await waitUntil(selectedMenuBg, (bg) => bg === 'rgb(245, 34, 45)', 'the selected menu item in the primary colour');

    await page.getByTestId('theme-dark').click();
    await waitUntil(() => page.evaluate(() => document.documentElement.classList.contains('dark')), Boolean, 'the dark class');
    await closeThemeDrawer(page);
    await screenshot(page, 'theme-red-dark');

    await page.reload();
    await page.getByTestId('tabs-bar').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    // The dark algorithm derives a darker shade of the same primary.
    expect(isRed(await selectedMenuBg())).toBe(true);
    const saved = await persisted(page, 'p8-theme');
    expect(saved.primary).toBe('#F5222D');
    expect(saved.isDark).toBe(true);
  });

  it('warns about a colour that is not six hex digits and keeps the previous one', async () => {
    const page = await suite.signedInPage(DEMO);
    await openThemeDrawer(page);
    const primary = page.getByTestId('theme-primary');
    const before = await primary.inputValue();
    await primary.fill('#12345');
    await primary.press('Enter');
    await page.locator('.ant-message-notice').filter({ hasText: /十六进制|hex/i }).waitFor();
    expect(await primary.inputValue()).toBe(before);
  });
});

describe('language', () => {
  it('switches the shell to English from the header and keeps it after a reload', async () => {
    const page = await suite.signedInPage(DEMO);
    const homeItem = page.getByTestId('menu-item-/home/index');
    expect(await homeItem.textContent()).toBe('首页');

    await page.getByTestId('header-lang').click();
    await page.getByTestId('lang-en').click();
    await waitUntil(() => homeItem.textContent(), (text) => text === 'Home', 'the English menu title');
    await waitUntil(() => page.title(), (title) => title.startsWith('Home'), 'the English page title');
    await screenshot(page, 'language-en-home');

    await page.reload();
    await page.getByTestId('tabs-bar').waitFor();
    expect(await page.getByTestId('menu-item-/home/index').textContent()).toBe('Home');
    expect((await persisted(page, 'p8-global')).language).toBe('en');

    // And back to Chinese.
    await page.getByTestId('header-lang').click();
    await page.getByTestId('lang-zh').click();
    await waitUntil(() => page.getByTestId('menu-item-/home/index').textContent(), (text) => text === '首页', 'the Chinese menu title');
  });

  it('switches the component size from the header and keeps it', async () => {
    const page = await suite.signedInPage(DEMO);
    await page.getByTestId('header-size').click();
    await page.getByTestId('size-small').click();
    await waitUntil(async () => (await persisted(page, 'p8-global')).componentSize, (size) => size === 'small', 'the small size');
    await page.reload();
    await page.getByTestId('tabs-bar').waitFor();
    expect((await persisted(page, 'p8-global')).componentSize).toBe('small');
  });
});
