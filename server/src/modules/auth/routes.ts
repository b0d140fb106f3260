import { loginByNameSchema, loginByPhoneSchema, resetPasswordSchema, sendPhoneCaptchaSchema } from '@p8/contract/auth';
import { issueImgCaptcha } from '../../core/captcha.ts';
import { publicRoute, untransactedRoute, type Http, type ServerModule } from '../../core/route.ts';
import { liveSessions, loginByName, loginByPhone, removeOtherSessions, resetPasswordBySms, sendPhoneCode, signOut } from './service.ts';

const tags = ['auth'];
const client = ({ request }: Http) => ({ ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });

/**
 * Sign-in, sign-out, sessions, password reset and captchas (the login screen's calls). Sessions live on
 * the owner connection, outside any tenant transaction: the signed-in routes here are untransacted.
 */
export const authModule: ServerModule = {
  name: 'auth',
  routes: [
    publicRoute({
      method: 'POST', url: '/api/auth/admin/name', tags, summary: 'Sign in by account name', body: loginByNameSchema,
      handler: async (deps, { body }, http) => ({ token: await loginByName(deps.database, deps.config, deps.shared, body, client(http)) }),
    }),
    publicRoute({
      method: 'POST', url: '/api/auth/admin/phone', tags, summary: 'Sign in by phone and SMS code', body: loginByPhoneSchema,
      handler: async (deps, { body }, http) => ({ token: await loginByPhone(deps.database, deps.config, deps.shared, body, client(http)) }),
    }),
    untransactedRoute({ method: 'POST', url: '/api/auth/logout', tags, summary: 'Sign out: revokes this session', handler: (caller) => signOut(caller) }),
    untransactedRoute({ method: 'GET', url: '/api/admin/auth', openRead: 'self', tags, summary: "The caller's live sessions", handler: (caller) => liveSessions(caller) }),
    untransactedRoute({ method: 'POST', url: '/api/admin/auth/removeOther', tags, summary: "Revoke the caller's other sessions", handler: (caller) => removeOtherSessions(caller) }),
    publicRoute({ method: 'GET', url: '/api/base/imgCaptcha', tags, summary: 'A picture captcha', handler: ({ shared, config }) => issueImgCaptcha(shared, config) }),
    // Login codes go through /phoneCaptcha; register and forget codes through /phoneCaptcha/verify.
    publicRoute({
      method: 'POST', url: '/api/base/phoneCaptcha', tags, summary: 'Send a login SMS code', body: sendPhoneCaptchaSchema,
      handler: (deps, { body }, { request }) => sendPhoneCode(deps, body, request.ip, ['login']),
    }),
    publicRoute({
      method: 'POST', url: '/api/base/phoneCaptcha/verify', tags, summary: 'Send a register / forget-password SMS code', body: sendPhoneCaptchaSchema,
      handler: (deps, { body }, { request }) => sendPhoneCode(deps, body, request.ip, ['register', 'forget']),
    }),
    publicRoute({
      method: 'PUT', url: '/api/base/tenant/reset/pwd', tags, summary: 'Reset a password by SMS code', body: resetPasswordSchema,
      handler: (deps, { body }) => resetPasswordBySms(deps, body),
    }),
  ],
};
