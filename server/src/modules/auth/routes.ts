import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  loginByNameSchema,
  loginByPhoneSchema,
  resetPasswordSchema,
  sendPhoneCaptchaSchema,
} from '@p8/contract/auth';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { admin, session } from '../../db/schema/index.ts';
import { revokeAllSessions, revokeOtherSessions, revokeSession } from '../../core/auth.ts';
import { consumeImgCaptcha, issueImgCaptcha, issueSmsCode, withSmsCode, type SmsSender } from '../../core/captcha.ts';
import { ok } from '../../core/envelope.ts';
import { BizError } from '../../core/errors.ts';
import { hashPassword } from '../../core/passwords.ts';
import { loginByName, loginByPhone } from './service.ts';

/** Sign-in, sign-out, sessions, password reset and captchas (the login screen's calls). */
export async function authRoutes(app: FastifyInstance, opts: { database: Database; config: Config; sms: SmsSender }) {
  const { database, config, sms } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { auth: false };
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  r.post('/api/auth/admin/name', { config: pub, schema: { tags: ['auth'], summary: 'Sign in by account name', body: loginByNameSchema } }, async (req) =>
    ok({ token: await loginByName(database, config, app.shared, req.body, client(req)) }),
  );

  r.post('/api/auth/admin/phone', { config: pub, schema: { tags: ['auth'], summary: 'Sign in by phone and SMS code', body: loginByPhoneSchema } }, async (req) =>
    ok({ token: await loginByPhone(database, config, app.shared, req.body, client(req)) }),
  );

  r.post('/api/auth/logout', { schema: { tags: ['auth'], summary: 'Sign out: revokes this session' } }, async (req) => {
    await database.withSystem((tx) => revokeSession(tx, req.auth.sessionId));
    return ok(null);
  });

  r.get('/api/admin/auth', { schema: { tags: ['auth'], summary: "The caller's live sessions" } }, async (req) => {
    const idleSince = new Date(Date.now() - config.session.idleMinutes * 60_000);
    const rows = await database.db
      .select({ id: session.id, ip: session.ip, userAgent: session.userAgent, createdAt: session.createdAt, lastSeenAt: session.lastSeenAt })
      .from(session)
      .where(
        and(
          eq(session.tenantId, req.auth.tenantId),
          eq(session.adminId, req.auth.adminId),
          isNull(session.revokedAt),
          gt(session.expiresAt, new Date()),
          gt(session.lastSeenAt, idleSince),
        ),
      )
      .orderBy(desc(session.lastSeenAt));
    return ok(rows.map((s) => ({ ...s, current: s.id === req.auth.sessionId })));
  });

  r.post('/api/admin/auth/removeOther', { schema: { tags: ['auth'], summary: "Revoke the caller's other sessions" } }, async (req) =>
    ok({ removed: await database.withSystem((tx) => revokeOtherSessions(tx, req.auth)) }),
  );

  r.get('/api/base/imgCaptcha', { config: pub, schema: { tags: ['auth'], summary: 'A picture captcha' } }, async () =>
    ok(await issueImgCaptcha(app.shared, config)),
  );

  // Login codes go through /phoneCaptcha; register and forget codes through /phoneCaptcha/verify.
  const sendCode = (purposes: string[]) => async (req: { body: z.infer<typeof sendPhoneCaptchaSchema>; ip: string }) => {
    const { phone, type, captchaId, captcha } = req.body;
    if (!purposes.includes(type)) throw new BizError('ParamError', { additional: 'type' });
    await consumeImgCaptcha(app.shared, captchaId, captcha);
    const [owner] = await database.db.select({ id: admin.id }).from(admin).where(eq(admin.phone, phone)).limit(1);
    if (type === 'register' && owner) throw new BizError('PhoneIsRegistered');
    if (type !== 'register' && !owner) throw new BizError('PhoneNotRegistered');
    return ok(await issueSmsCode(app.shared, config, sms, { phone, purpose: type, ip: req.ip }));
  };
  r.post('/api/base/phoneCaptcha', { config: pub, schema: { tags: ['auth'], summary: 'Send a login SMS code', body: sendPhoneCaptchaSchema } }, sendCode(['login']));
  r.post(
    '/api/base/phoneCaptcha/verify',
    { config: pub, schema: { tags: ['auth'], summary: 'Send a register / forget-password SMS code', body: sendPhoneCaptchaSchema } },
    sendCode(['register', 'forget']),
  );

  r.put('/api/base/tenant/reset/pwd', { config: pub, schema: { tags: ['auth'], summary: 'Reset a password by SMS code', body: resetPasswordSchema } }, async (req) => {
    const body = req.body;
    await withSmsCode(app.shared, config, { phone: body.phone, purpose: 'forget', code: body.code }, () =>
      database.withSystem(async (tx) => {
        const [account] = await tx.select({ id: admin.id, tenantId: admin.tenantId }).from(admin).where(eq(admin.phone, body.phone)).limit(1);
        if (!account) throw new BizError('PhoneNotRegistered');
        await tx
          .update(admin)
          .set({ passwordHash: await hashPassword(body.password), failedLogins: 0, lockedUntil: null, updatedAt: new Date() })
          .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
        await revokeAllSessions(tx, account.tenantId, account.id);
      }),
    );
    return ok(null);
  });
}
