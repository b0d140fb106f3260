import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '@p8/contract/errors';
import { DEMO, imgCaptcha, login, pathOf, registerTenant, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('login');
});
afterAll(async () => {
  await suite?.close();
});

async function submitAccountForm(page: Awaited<ReturnType<Suite['page']>>, name: string, password: string) {
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

const errorText = (page: Awaited<ReturnType<Suite['page']>>) => page.getByTestId('login-error').textContent({ timeout: 10_000 });

describe('account login', () => {
  it('signs in with the right name and password and lands on the home page', async () => {
    const page = await suite.page();
    await login(page, DEMO.name, DEMO.password);
    expect(pathOf(page)).toBe('/home/index');
    expect(await storedToken(page)).not.toBe('');
    await page.getByTestId('home-common-menus').waitFor();
    await screenshot(page, 'login-success-home');
  });

  it('refuses a wrong password with the catalogue message, in Chinese and in English', async () => {
    const account = await registerTenant(suite.server, 'wrongpw');
    const page = await suite.page();
    await page.goto('/login');

    await submitAccountForm(page, account.name, 'Wrong12345');
    await waitUntil(() => errorText(page), (text) => text === errorCatalogue.PasswordError.zh, 'the Chinese wrong-password message');
    expect(pathOf(page)).toBe('/login');
    expect(await storedToken(page)).toBe('');
    await screenshot(page, 'login-failure-zh');

    await page.getByTestId('login-lang-en').click();
    await submitAccountForm(page, account.name, 'Wrong12345');
    await waitUntil(() => errorText(page), (text) => text === errorCatalogue.PasswordError.en, 'the English wrong-password message');
    expect(await page.getByTestId('login-submit').textContent()).toMatch(/log\s*in|sign\s*in/i);
    await screenshot(page, 'login-failure-en');
  });

  it('names an unknown account as not existing', async () => {
    const page = await suite.page();
    await page.goto('/login');
    await submitAccountForm(page, 'nosuchaccount42', 'Whatever123');
    // The form shows this one under the name field.
    await waitUntil(
      () => page.locator('.ant-form-item-explain-error').allTextContents(),
      (texts) => texts.includes(errorCatalogue.AdminNotExist.zh),
      'the account-does-not-exist message',
    );
  });
});

describe('picture captcha after failed logins', () => {
  it('appears after 3 failed attempts and is then required, and the right password with the right captcha signs in', async () => {
    const account = await registerTenant(suite.server, 'captcha');
    const page = await suite.page();
    await page.goto('/login');

    for (let attempt = 1; attempt <= 2; attempt++) {
      await submitAccountForm(page, account.name, `Wrong${attempt}2345`);
      await waitUntil(() => errorText(page), (text) => text === errorCatalogue.PasswordError.zh, `failure ${attempt}`);
      expect(await page.getByTestId('login-captcha').count()).toBe(0);
    }
    await submitAccountForm(page, account.name, 'Wrong32345');
    await page.getByTestId('login-captcha').waitFor();
    const image = page.getByTestId('login-captcha-img');
    await image.locator('img').waitFor();
    expect(await image.locator('img').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await screenshot(page, 'login-captcha-required');

    // Without the captcha the form does not even send the request.
    await submitAccountForm(page, account.name, account.password);
    expect(pathOf(page)).toBe('/login');

    // A wrong captcha is refused by the server, and a new picture is shown for the next attempt.
    const firstId = await image.getAttribute('data-captcha-id');
    await page.getByTestId('login-captcha').fill('zzzz');
    await page.getByTestId('login-submit').click();
    await waitUntil(() => image.getAttribute('data-captcha-id'), (id) => !!id && id !== firstId, 'a fresh captcha after a wrong answer');
    expect(await storedToken(page)).toBe('');

    // The exposed answer of the picture on screen signs in.
    const code = await waitUntil(() => image.getAttribute('data-captcha-code'), Boolean, 'the exposed captcha code');
    await page.getByTestId('login-captcha').fill(code!);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/home/index');
    expect(await storedToken(page)).not.toBe('');
  });

  it('is demanded by the API once the account has 3 failures', async () => {
    const account = await registerTenant(suite.server, 'capapi');
    const post = (body: object) =>
      fetch(`${suite.server.baseURL}/api/auth/admin/name`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ status: number; message: string; data: { needCaptcha: boolean } | null }>,
      );
    for (let i = 0; i < 3; i++) await post({ name: account.name, password: 'Wrong12345' });
    const withoutCaptcha = await post({ name: account.name, password: account.password });
    expect(withoutCaptcha.message).toBe('ImgCaptchaRequired');
    const { captchaId, code } = await imgCaptcha(suite.server);
    const withCaptcha = await post({ name: account.name, password: account.password, captchaId, captcha: code });
    expect(withCaptcha.status).toBe(0);
  });
});

describe('remember password', () => {
  it('fills the form again on the next visit when ticked', async () => {
    const account = await registerTenant(suite.server, 'remember');
    const page = await suite.page();
    await page.goto('/login');
    await page.getByTestId('login-name').fill(account.name);
    await page.getByTestId('login-password').fill(account.password);
    await page.getByTestId('login-remember').check();
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/home/index');
    await page.evaluate(() => localStorage.removeItem('p8-auth'));
    await page.goto('/login');
    await page.getByTestId('login-name').waitFor();
    expect(await page.getByTestId('login-name').inputValue()).toBe(account.name);
    expect(await page.getByTestId('login-password').inputValue()).toBe(account.password);
    expect(await page.getByTestId('login-remember').isChecked()).toBe(true);
  });
});
