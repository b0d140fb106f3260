import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../src/db/schema/index.ts';
import { smsTriesKey } from '../src/core/captcha.ts';
import { call, imgCaptcha, seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';

/*
 * Attacks in parallel on one process (the in-process shared state): every limit holds on the value an
 * atomic step returned, however the requests interleave. cluster.test.ts repeats them across two
 * processes on PostgreSQL and Redis.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const countMessages = (bodies: Array<{ message: string }>) =>
  bodies.reduce<Record<string, number>>((counts, { message }) => ({ ...counts, [message]: (counts[message] ?? 0) + 1 }), {});

async function accountState(t: TestTenant) {
  const [row] = await ctx.database.db
    .select({ failedLogins: admin.failedLogins, lockedUntil: admin.lockedUntil })
    .from(admin)
    .where(and(eq(admin.tenantId, t.tenantId), eq(admin.id, t.adminId)));
  return row;
}

describe('parallel wrong passwords', () => {
  it('are each counted, and compare no more passwords than the lock allows', async () => {
    const t = await seedTenant(ctx.database);
    const captchas = await Promise.all(Array.from({ length: 40 }, () => imgCaptcha(ctx.app)));
    const answers = await Promise.all(
      captchas.map((c) => call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: t.name, password: 'wrong', captchaId: c.captchaId, captcha: c.code } })),
    );
    // Attempts 1-9 were compared and wrong, the 10th locked the account, the other 30 were refused unchecked.
    expect(countMessages(answers.map((a) => a.body))).toEqual({ PasswordError: 9, AdminTemporarilyLocked: 31 });
    const state = await accountState(t);
    expect(state.failedLogins).toBe(40);
    expect(state.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    const right = await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: t.name, password: t.password } });
    expect(right.body.message).toBe('AdminTemporarilyLocked');
  });

  it('without captchas compare at most three passwords, and a burst past the limit locks the account', async () => {
    const t = await seedTenant(ctx.database);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: t.name, password: 'wrong' } })),
    );
    const counts = countMessages(answers.map((a) => a.body));
    const { PasswordError = 0, ImgCaptchaRequired = 0, AdminTemporarilyLocked = 0, ...others } = counts;
    expect(others).toEqual({});
    expect(PasswordError).toBeLessThanOrEqual(3);
    expect(PasswordError + ImgCaptchaRequired + AdminTemporarilyLocked).toBe(40);
    const state = await accountState(t);
    // Whether the burst went past ten counted attempts depends on how the requests interleaved; if it did, the account is locked.
    if (state.failedLogins > 10) expect(state.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    else expect(state.lockedUntil).toBeNull();
  });
});

describe('parallel SMS requests', () => {
  it('send one code for ten parallel sends to one phone', async () => {
    const t = await seedTenant(ctx.database);
    const before = ctx.sms.length;
    const captchas = await Promise.all(Array.from({ length: 10 }, () => imgCaptcha(ctx.app)));
    const answers = await Promise.all(
      captchas.map((c) => call(ctx.app, 'POST', '/api/base/phoneCaptcha', { body: { phone: t.phone, type: 'login', captchaId: c.captchaId, captcha: c.code } })),
    );
    expect(countMessages(answers.map((a) => a.body))).toEqual({ Success: 1, SmsSendTooFrequent: 9 });
    expect(ctx.sms.slice(before).filter((m) => m.phone === t.phone)).toHaveLength(1);
  });

  it('count thirty parallel wrong guesses and burn the code after five', async () => {
    const t = await seedTenant(ctx.database);
    const c = await imgCaptcha(ctx.app);
    const sent = await call<{ code: string }>(ctx.app, 'POST', '/api/base/phoneCaptcha', { body: { phone: t.phone, type: 'login', captchaId: c.captchaId, captcha: c.code } });
    const wrong = sent.body.data.code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t.phone, code: wrong } })),
    );
    expect(answers.every((a) => a.body.message === 'PhoneCaptchaError')).toBe(true);
    expect(await ctx.app.shared.get(smsTriesKey('login', t.phone))).toBe('30');
    const right = await call(ctx.app, 'POST', '/api/auth/admin/phone', { body: { phone: t.phone, code: sent.body.data.code } });
    expect(right.body.message).toBe('PhoneCaptchaError');
  });
});
