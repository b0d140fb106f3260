import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, pathOf, screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('tabs');
});
afterAll(async () => {
  await suite?.close();
});

const HOME = '/home/index';
const USER_INFO = '/person/userInfo';

/** Full paths of the open tabs, in order. */
const openTabs = (page: Page) =>
  page.locator('[data-testid="tabs-bar"] [data-testid^="tab-/"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!.slice(4)));

async function openUserInfoFromMenu(page: Page) {
  const item = page.getByTestId(`menu-item-${USER_INFO}`);
  // The "personal center" group may already be open (it stays open after a visit).
  if (!(await item.isVisible())) await page.getByTestId('menu-item-/person').click();
  await item.click();
  await page.waitForURL((url) => url.pathname === USER_INFO);
  await page.getByTestId(`tab-${USER_INFO}`).waitFor();
}

async function tabAction(page: Page, action: 'refresh' | 'maximize' | 'close-current' | 'close-others' | 'close-all') {
  await page.getByTestId('tabs-more').click();
  const item = page.getByTestId(`tabs-${action}`);
  await item.waitFor();
  await item.click();
  await item.waitFor({ state: 'hidden' });
}

describe('tab bar', () => {
  it('opens a tab per visited screen; home is fixed and cannot be closed', async () => {
    const page = await suite.signedInPage(DEMO);
    expect(await openTabs(page)).toEqual([HOME]);
    await openUserInfoFromMenu(page);
    expect(await openTabs(page)).toEqual([HOME, USER_INFO]);
    await screenshot(page, 'tabs-two-open');

    // Clicking a tab switches to it.
    await page.getByTestId(`tab-${HOME}`).click();
    await page.waitForURL((url) => url.pathname === HOME);
  });

  it('closes the current tab and moves to its neighbour', async () => {
    const page = await suite.signedInPage(DEMO);
    await openUserInfoFromMenu(page);
    await tabAction(page, 'close-current');
    await waitUntil(() => openTabs(page), (tabs) => tabs.join() === HOME, 'only home left');
    expect(pathOf(page)).toBe(HOME);
  });

  it('closes the other tabs and stays on the current one', async () => {
    const page = await suite.signedInPage(DEMO);
    await openUserInfoFromMenu(page);
    await page.getByTestId(`tab-${HOME}`).click();
    await page.waitForURL((url) => url.pathname === HOME);
    await tabAction(page, 'close-others');
    await waitUntil(() => openTabs(page), (tabs) => tabs.join() === HOME, 'only home left');
    expect(pathOf(page)).toBe(HOME);

    // From user info with only the fixed home tab beside it, there is nothing else to close.
    await openUserInfoFromMenu(page);
    await page.getByTestId('tabs-more').click();
    const closeOthers = page.locator('.ant-dropdown-menu-item').filter({ has: page.getByTestId('tabs-close-others') });
    await closeOthers.waitFor();
    expect(await closeOthers.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await openTabs(page)).toEqual([HOME, USER_INFO]);
  });

  it('closes all tabs but the fixed one and goes home', async () => {
    const page = await suite.signedInPage(DEMO);
    await openUserInfoFromMenu(page);
    await tabAction(page, 'close-all');
    await waitUntil(() => openTabs(page), (tabs) => tabs.join() === HOME, 'only home left');
    await page.waitForURL((url) => url.pathname === HOME);
  });

  it('refreshes the current view: unsaved input is dropped, the tab stays', async () => {
    const page = await suite.signedInPage(DEMO);
    await openUserInfoFromMenu(page);
    const nickName = page.getByTestId('person-nickName');
    await nickName.waitFor();
    await waitUntil(() => nickName.inputValue(), (v) => v !== '', 'the saved nickname in the form');
    const saved = await nickName.inputValue();
    await nickName.fill('not saved');
    await tabAction(page, 'refresh');
    await waitUntil(() => page.getByTestId('person-nickName').inputValue(), (v) => v === saved, 'the re-mounted form');
    expect(await openTabs(page)).toEqual([HOME, USER_INFO]);
    expect(pathOf(page)).toBe(USER_INFO);
  });

  it('maximizes the view (no header, menu or tabs) and comes back', async () => {
    const page = await suite.signedInPage(DEMO);
    await tabAction(page, 'maximize');
    await page.getByTestId('maximize-exit').waitFor();
    expect(await page.getByTestId('header-user').isVisible()).toBe(false);
    expect(await page.getByTestId('tabs-bar').isVisible()).toBe(false);
    await page.getByTestId('home-page').waitFor();
    await screenshot(page, 'tabs-maximized');

    await page.getByTestId('maximize-exit').click();
    await page.getByTestId('header-user').waitFor();
    await page.getByTestId('tabs-bar').waitFor();
    expect(await page.getByTestId('maximize-exit').count()).toBe(0);
  });

  it('keeps the open tabs across a reload', async () => {
    const page = await suite.signedInPage(DEMO);
    await openUserInfoFromMenu(page);
    await page.reload();
    await page.getByTestId(`tab-${USER_INFO}`).waitFor();
    expect(await openTabs(page)).toEqual([HOME, USER_INFO]);
  });
});
