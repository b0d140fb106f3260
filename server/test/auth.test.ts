import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { hashToken } from '../src/core/auth.ts';
import { session, tenant } from '../src/db/schema/index.ts';
import { call, imgCaptcha, login, seedTenant, setAdmin, startTestApp, uniquePhone, unique, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

/** Runs `fn` with the clock `seconds` ahead (only Date moves: timers and the database run as usual). */
async function afterSeconds<T>(seconds: number, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

const loginBody = (name: string, password: string, extra: object = {}) => ({ body: { name, password, ...extra } });

describe('sign-in by account name', () => {
  it('returns a token that opens the signed-in routes', async () => {
    const t = await seedTenant(ctx.database);
    const res = await call<{ token: string }>(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password));
    expect(res.body.status).toBe(0);
    // `<tenant>.<random>`: the session is found within its tenant (docs/operations.md, "Distributing by tenant").
    expect(res.body.data.token).toMatch(new RegExp(`^${t.tenantId}\\.[A-Za-z0-9_-]{43}$`));
    const me = await call(ctx.app, 'GET', '/api/admin/current/detail', { token: res.body.data.token });
    expect(me.body.data).toMatchObject({ name: t.name, tenantId: t.tenantId, isInitialAdmin: true, roleKey: 'admin' });
  });

  it('matches the account name case-insensitively', async () => {
    const t = await seedTenant(ctx.database);
    expect(await login(ctx.app, t.name.toUpperCase(), t.password)).toBeTruthy();
  });

  it('stores only a hash of the token', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const rows = await ctx.database.db.select({ tokenHash: session.tokenHash }).from(session);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('says PasswordError for a wrong password and AdminNotExist for an unknown account', async () => {
    const t = await seedTenant(ctx.database);
    const wrong = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, 'nope'));
    expect(wrong.body).toMatchObject({ status: 40001, message: 'PasswordError', data: { needCaptcha: false } });
    const unknown = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(`ghost${unique()}`, 'x'));
    expect(unknown.body.message).toBe('AdminNotExist');
  });

  it('requires a picture captcha after 3 failures, and accepts the right one', async () => {
    const t = await seedTenant(ctx.database);
    const fails = [];
    for (let i = 0; i < 3; i++) fails.push((await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, 'wrong'))).body);
    expect(fails.map((f) => (f.data as { needCaptcha: boolean }).needCaptcha)).toEqual([false, false, true]);
    const noCaptcha = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password));
    expect(noCaptcha.body).toMatchObject({ message: 'ImgCaptchaRequired', data: { needCaptcha: true } });

    const wrongCaptcha = await imgCaptcha(ctx.app);
    const bad = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password, { captchaId: wrongCaptcha.captchaId, captcha: 'zzzz' }));
    expect(bad.body.message).toBe('ImgCaptchaError');

    const c = await imgCaptcha(ctx.app);
    const good = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password, { captchaId: c.captchaId, captcha: c.code }));
    expect(good.body.status).toBe(0);
    // Success resets the count: the next sign-in needs no captcha.
    expect(await login(ctx.app, t.name, t.password)).toBeTruthy();
  });

  it('uses a picture captcha only once', async () => {
    const t = await seedTenant(ctx.database);
    await setAdmin(ctx.database, t.tenantId, t.adminId, { failedLogins: 3 });
    const c = await imgCaptcha(ctx.app);
    await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, 'wrong', { captchaId: c.captchaId, captcha: c.code }));
    const replay = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password, { captchaId: c.captchaId, captcha: c.code }));
    expect(replay.body.message).toBe('ImgCaptchaExpired');
  });

  it('refuses an expired picture captcha', async () => {
    const t = await seedTenant(ctx.database);
    await setAdmin(ctx.database, t.tenantId, t.adminId, { failedLogins: 3 });
    const c = await imgCaptcha(ctx.app);
    const res = await afterSeconds(ctx.config.captcha.imgTtlSeconds + 1, () =>
      call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password, { captchaId: c.captchaId, captcha: c.code })),
    );
    expect(res.body.message).toBe('ImgCaptchaExpired');
  });

  it('locks the account for 15 minutes after 10 failures, even for the right password', async () => {
    const t = await seedTenant(ctx.database);
    await setAdmin(ctx.database, t.tenantId, t.adminId, { failedLogins: 9 });
    const c = await imgCaptcha(ctx.app);
    const tenth = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, 'wrong', { captchaId: c.captchaId, captcha: c.code }));
    expect(tenth.body.message).toBe('AdminTemporarilyLocked');
    const right = await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password));
    expect(right.body.message).toBe('AdminTemporarilyLocked');
    // After the lock has run out the right password works again (with a captcha no longer needed: count was reset).
    await setAdmin(ctx.database, t.tenantId, t.adminId, { lockedUntil: new Date(Date.now() - 1000) });
    expect(await login(ctx.app, t.name, t.password)).toBeTruthy();
  });

  it('refuses a locked account (AdminIsLock) and a disabled tenant (TenantIsDisabled)', async () => {
    const locked = await seedTenant(ctx.database);
    await setAdmin(ctx.database, locked.tenantId, locked.adminId, { isLock: true });
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(locked.name, locked.password))).body.message).toBe('AdminIsLock');

    const disabled = await seedTenant(ctx.database);
    await ctx.database.db.update(tenant).set({ enabled: false }).where(eq(tenant.id, disabled.tenantId));
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(disabled.name, disabled.password))).body.message).toBe('TenantIsDisabled');
  });

  it('ends live sessions when the account is locked or the tenant disabled', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    await setAdmin(ctx.database, t.tenantId, t.adminId, { isLock: true });
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body).toMatchObject({ status: 40100, message: 'AdminIsLock' });
    await setAdmin(ctx.database, t.tenantId, t.adminId, { isLock: false });
    await ctx.database.db.update(tenant).set({ enabled: false }).where(eq(tenant.id, t.tenantId));
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body).toMatchObject({ status: 40100, message: 'TenantIsDisabled' });
  });
});

describe('sessions', () => {
  it('expire after the idle limit with 40100', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    await ctx.database.db.update(session).set({ lastSeenAt: new Date(Date.now() - (ctx.config.session.idleMinutes * 60 + 1) * 1000) });
    const res = await call(ctx.app, 'GET', '/api/admin/current/detail', { token });
    expect(res.httpStatus).toBe(401);
    expect(res.body).toMatchObject({ status: 40100, message: 'SessionExpired' });
  });

  it('expire at the absolute limit even when active', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    await ctx.database.db.update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.adminId, t.adminId));
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.status).toBe(40100);
  });

  it('end at logout', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    expect((await call(ctx.app, 'POST', '/api/auth/logout', { token })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.status).toBe(40100);
  });

  it('are listed by /admin/auth and the others revoked by removeOther', async () => {
    const t = await seedTenant(ctx.database);
    const first = await login(ctx.app, t.name, t.password);
    const second = await login(ctx.app, t.name, t.password);
    const list = await call<Array<{ current: boolean }>>(ctx.app, 'GET', '/api/admin/auth', { token: second });
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.filter((s) => s.current)).toHaveLength(1);
    const removed = await call(ctx.app, 'POST', '/api/admin/auth/removeOther', { token: second });
    expect(removed.body.data).toEqual({ removed: 1 });
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: first })).body.status).toBe(40100);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: second })).body.status).toBe(0);
  });
});

async function sendCode(phone: string, type: 'login' | 'register' | 'forget') {
  const c = await imgCaptcha(ctx.app);
  const url = type === 'login' ? '/api/base/phoneCaptcha' : '/api/base/phoneCaptcha/verify';
  return call<{ seconds: number; code: string }>(ctx.app, 'POST', url, { body: { phone, type, captchaId: c.captchaId, captcha: c.code } });
}

describe('SMS codes and mobile sign-in', () => {
  it('signs in with a code sent to the phone, once', async () => {
    const t = await seedTenant(ctx.database);
    const sent = await sendCode(t.phone, 'login');
    expect(sent.body.data.seconds).toBe(60);
    expect(ctx.sms.at(-1)).toMatchObject({ phone: t.phone, purpose: 'login', code: sent.body.data.code });
    const ok = await call<{ token: string }>(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t.phone, code: sent.body.data.code } });
    expect(ok.body.status).toBe(0);
    const replay = await call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t.phone, code: sent.body.data.code } });
    expect(replay.body.message).toBe('PhoneCaptchaError');
  });

  it('needs a correct picture captcha to send', async () => {
    const t = await seedTenant(ctx.database);
    const c = await imgCaptcha(ctx.app);
    const res = await call(ctx.app, 'POST', '/api/base/phoneCaptcha', { body: { phone: t.phone, type: 'login', captchaId: c.captchaId, captcha: 'qqqq' } });
    expect(res.body.message).toBe('ImgCaptchaError');
  });

  it('refuses a resend inside the countdown and past the hourly cap', async () => {
    const t = await seedTenant(ctx.database);
    expect((await sendCode(t.phone, 'login')).body.status).toBe(0);
    expect((await sendCode(t.phone, 'login')).body.message).toBe('SmsSendTooFrequent');
  });

  it('refuses an expired code and burns a code after five wrong answers', async () => {
    const t = await seedTenant(ctx.database);
    const sent = await sendCode(t.phone, 'login');
    for (let i = 0; i < 5; i++) {
      const wrong = await call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t.phone, code: '000000' === sent.body.data.code ? '111111' : '000000' } });
      expect(wrong.body.message).toBe('PhoneCaptchaError');
    }
    const right = await call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t.phone, code: sent.body.data.code } });
    expect(right.body.message).toBe('PhoneCaptchaError');

    const t2 = await seedTenant(ctx.database);
    const sent2 = await sendCode(t2.phone, 'login');
    const expired = await afterSeconds(ctx.config.captcha.smsTtlSeconds + 1, () =>
      call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t2.phone, code: sent2.body.data.code } }),
    );
    expect(expired.body.message).toBe('PhoneCaptchaExpired');
  });

  it('says PhoneNotRegistered for a login code to an unknown phone and PhoneIsRegistered for a register code to a known one', async () => {
    expect((await sendCode(uniquePhone(), 'login')).body.message).toBe('PhoneNotRegistered');
    const t = await seedTenant(ctx.database);
    expect((await sendCode(t.phone, 'register')).body.message).toBe('PhoneIsRegistered');
  });
});

describe('registration and password reset', () => {
  it('registers a tenant with its default department, role, administrator and menus', async () => {
    const phone = uniquePhone();
    const name = `reg${unique()}`;
    const code = (await sendCode(phone, 'register')).body.data.code;
    const res = await call<{ tenantId: number }>(ctx.app, 'POST', '/api/base/tenant/register', {
      body: { tenantName: 'Registered Co', name, phone, code, password: 'Secret123', confirmPassword: 'Secret123' },
    });
    expect(res.body.status).toBe(0);
    const token = await login(ctx.app, name, 'Secret123');
    const me = await call(ctx.app, 'GET', '/api/admin/current/detail', { token });
    expect(me.body.data).toMatchObject({ name, roleKey: 'admin', deptName: 'Registered Co', isInitialAdmin: true });
    const menus = await call<{ menuList: Array<{ name: string }> }>(ctx.app, 'GET', '/api/admin/current/role', { token });
    expect(menus.body.data.menuList.map((m) => m.name)).toContain('home');
  });

  it('refuses mismatched passwords, a weak password and a taken account name — changing nothing', async () => {
    const t = await seedTenant(ctx.database);
    const phone = uniquePhone();
    const mismatch = await call(ctx.app, 'POST', '/api/base/tenant/register', {
      body: { tenantName: 'X Co', name: `x${unique()}`, phone, code: '123456', password: 'Secret123', confirmPassword: 'Secret124' },
    });
    expect(mismatch.body).toMatchObject({ status: 40001, message: 'PasswordInconsistent', additional: 'confirmPassword' });
    const weak = await call(ctx.app, 'POST', '/api/base/tenant/register', {
      body: { tenantName: 'X Co', name: `x${unique()}`, phone, code: '123456', password: 'short', confirmPassword: 'short' },
    });
    expect(weak.body.message).toBe('PasswordFormatError');
    const code = (await sendCode(phone, 'register')).body.data.code;
    const before = await ctx.database.db.select({ id: tenant.id }).from(tenant);
    const taken = await call(ctx.app, 'POST', '/api/base/tenant/register', {
      body: { tenantName: 'X Co', name: t.name, phone, code, password: 'Secret123', confirmPassword: 'Secret123' },
    });
    expect(taken.body.message).toBe('AdminExist');
    expect(await ctx.database.db.select({ id: tenant.id }).from(tenant)).toHaveLength(before.length);
  });

  it('honours the open-register flag', async () => {
    const closed = await startTestApp({ openRegister: false });
    try {
      const res = await call(closed.app, 'POST', '/api/base/tenant/register', {
        body: { tenantName: 'Closed Co', name: `c${unique()}`, phone: uniquePhone(), code: '123456', password: 'Secret123', confirmPassword: 'Secret123' },
      });
      expect(res.body.message).toBe('RegisterClosed');
      expect((await call<{ openRegister: boolean }>(closed.app, 'GET', '/api/base/system/config')).body.data.openRegister).toBe(false);
    } finally {
      await closed.close();
    }
  });

  it('resets a password by SMS code and signs out every session', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const code = (await sendCode(t.phone, 'forget')).body.data.code;
    const res = await call(ctx.app, 'PUT', '/api/base/tenant/reset/pwd', { body: { phone: t.phone, code, password: 'NewPass99', confirmPassword: 'NewPass99' } });
    expect(res.body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.status).toBe(40100);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', loginBody(t.name, t.password))).body.message).toBe('PasswordError');
    expect(await login(ctx.app, t.name, 'NewPass99')).toBeTruthy();
  });
});

describe('configuration', () => {
  it('believes X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
    const t = await seedTenant(ctx.database);
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    // app.inject connects from 127.0.0.1, as a proxy on the same machine would.
    const sessionIp = async (app: typeof ctx.app) => {
      const res = await app.inject({ method: 'POST', url: '/api/auth/admin/name', payload: { name: t.name, password: t.password }, headers: forwarded });
      const { token } = res.json<{ data: { token: string } }>().data;
      const [row] = await ctx.database.db.select({ ip: session.ip }).from(session).where(eq(session.tokenHash, hashToken(token)));
      return row.ip;
    };
    expect(ctx.config.trustProxy).toBe(false);
    expect(await sessionIp(ctx.app)).toBe('127.0.0.1');
    const behindProxy = await buildApp({ config: { ...ctx.config, trustProxy: ['127.0.0.1'] }, database: ctx.database, logger: false });
    try {
      expect(await sessionIp(behindProxy)).toBe('203.0.113.9');
    } finally {
      await behindProxy.close();
    }
  });


  it('refuses the test-only code exposure in production', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ env: 'production', exposeCodes: true })).toThrow(/refused/);
    process.env.EXPOSE_CODES_FOR_TESTS = '1';
    process.env.NODE_ENV = 'production';
    try {
      expect(() => loadConfig()).toThrow(/refused/);
    } finally {
      delete process.env.EXPOSE_CODES_FOR_TESTS;
      process.env.NODE_ENV = 'test';
    }
  });
});
