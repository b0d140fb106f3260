import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorCatalogue } from '@p8/contract/errors';
import { api, pathOf, registerTenant, screenshot, startSuite, storedToken, uniqueName, uniquePhone, waitUntil, type Suite } from '../harness.ts';

/** A short resend interval: one phone receives a register, a login and a reset code within a minute. */
const RESEND_SECONDS = 3;

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('register', { SMS_RESEND_SECONDS: String(RESEND_SECONDS) });
});
afterAll(async () => {
  await suite?.close();
});

/**
 * Fills the picture captcha from the answer the test server exposes, presses "get code" and returns
 * the SMS code (also exposed), after checking the resend countdown started.
 */
async function getSmsCode(page: Page, prefix: 'login' | 'register' | 'forget'): Promise<string> {
  const image = page.getByTestId(`${prefix}-captcha-img`);
  // The form may fetch a newer picture right after it mounts: answer the one finally on screen.
  await page.waitForLoadState('networkidle');
  const captcha = await waitUntil(() => image.getAttribute('data-captcha-code'), Boolean, `the ${prefix} picture captcha`);
  await page.getByTestId(`${prefix}-captcha`).fill(captcha!);
  const send = page.getByTestId(`${prefix}-sms-send`);
  await send.click();
  const code = await waitUntil(() => send.getAttribute('data-sms-code'), Boolean, `the ${prefix} SMS code`);
  // The resend countdown runs from the seconds the server gave.
  await waitUntil(async () => Number(await send.getAttribute('data-seconds')), (s) => s > 0 && s <= RESEND_SECONDS, 'the resend countdown', 2_000);
  expect(await send.isDisabled()).toBe(true);
  // The button shows the seconds left, which tick on between two reads on a slow machine: read it once.
  const shown = Number(/\d+/.exec((await send.textContent()) ?? '')?.[0]);
  expect(shown > 0 && shown <= RESEND_SECONDS, `countdown shown: ${shown}`).toBe(true);
  return code!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An account registered through the API, once its phone may receive the next SMS code. */
async function freshAccount(prefix: string) {
  const account = await registerTenant(suite.server, prefix);
  await sleep(RESEND_SECONDS * 1000 + 300);
  return account;
}

describe('register', () => {
  const account = {
    tenantName: `端到端测试公司${Date.now() % 100000}`,
    name: uniqueName('reg'),
    realName: '注册人',
    phone: uniquePhone(),
    password: 'Regist3r99',
  };

  it('registers a tenant from the login page, then signs in with the new account', async () => {
    const page = await suite.page();
    await page.goto('/login');
    await page.getByTestId('login-to-register').click();
    await page.getByTestId('register-tenant-name').fill(account.tenantName);
    await page.getByTestId('register-name').fill(account.name);
    await page.getByTestId('register-real-name').fill(account.realName);
    await page.getByTestId('register-phone').fill(account.phone);
    const code = await getSmsCode(page, 'register');
    await page.getByTestId('register-sms-code').fill(code);
    await page.getByTestId('register-password').fill(account.password);
    await page.getByTestId('register-confirm-password').fill(`${account.password}x`);
    await page.getByTestId('register-submit').click();
    await page.locator('.ant-form-item-explain-error').filter({ hasText: '两次' }).waitFor();
    await page.getByTestId('register-confirm-password').fill(account.password);
    await screenshot(page, 'register-filled');
    await page.getByTestId('register-submit').click();

    // Back on the account form with the new account filled in.
    await waitUntil(() => page.getByTestId('login-name').inputValue().catch(() => ''), (v) => v === account.name, 'the login form with the new account');
    await page.getByTestId('login-password').fill(account.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/home/index');
    await waitUntil(() => page.getByTestId('header-user').textContent(), (text) => !!text?.includes(account.realName), 'the new user in the header');
    const tenant = await api<{ name: string }>(suite.server, 'GET', '/admin/admin/tenant', undefined, await storedToken(page));
    expect(tenant.data.name).toBe(account.tenantName);
  });

});

describe('mobile login', () => {
  it('signs in by phone with an SMS code; a wrong code is refused first', async () => {
    const account = await freshAccount('mobile');
    const page = await suite.page();
    await page.goto('/login');
    await page.getByTestId('login-tab-mobile').click();
    await page.getByTestId('login-phone').fill(account.phone);
    const code = await getSmsCode(page, 'login');

    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByTestId('login-sms-code').fill(wrong);
    await page.getByTestId('login-submit').click();
    await page.locator('.ant-form-item-explain-error').filter({ hasText: errorCatalogue.PhoneCaptchaError.zh }).waitFor();
    expect(pathOf(page)).toBe('/login');
    await screenshot(page, 'mobile-login-wrong-code');

    await page.getByTestId('login-sms-code').fill(code);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/home/index');
    expect(await storedToken(page)).not.toBe('');
  });

});

describe('forgotten password', () => {
  it('resets the password with an SMS code; the new password signs in, the old one no longer', async () => {
    const account = { ...(await freshAccount('forget')), newPassword: 'Res3tPass77' };
    const page = await suite.page();
    await page.goto('/login');
    await page.getByTestId('login-to-forget').click();
    await page.getByTestId('forget-phone').fill(account.phone);
    const code = await getSmsCode(page, 'forget');
    await page.getByTestId('forget-sms-code').fill(code);
    await page.getByTestId('forget-password').fill(account.newPassword);
    await page.getByTestId('forget-confirm-password').fill(account.newPassword);
    await screenshot(page, 'forget-filled');
    await page.getByTestId('forget-submit').click();

    // Back on the account form.
    await page.getByTestId('login-name').waitFor();
    await page.getByTestId('login-name').fill(account.name);
    await page.getByTestId('login-password').fill(account.password);
    await page.getByTestId('login-submit').click();
    await waitUntil(() => page.getByTestId('login-error').textContent(), (text) => text === errorCatalogue.PasswordError.zh, 'the old password refused');

    await page.getByTestId('login-password').fill(account.newPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/home/index');
  });
});
