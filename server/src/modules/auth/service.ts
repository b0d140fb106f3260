import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { admin, loginName, loginPhone, session, tenant } from '../../db/schema/index.ts';
import { openSession, revokeAllSessions, revokeOtherSessions, revokeSession } from '../../core/auth.ts';
import { consumeImgCaptcha, issueSmsCode, withSmsCode } from '../../core/captcha.ts';
import type { SharedState } from '../../core/shared-state.ts';
import { BizError } from '../../core/errors.ts';
import { hashPassword, verifyPassword } from '../../core/passwords.ts';
import type { ModuleDeps, RequestCaller } from '../../core/route.ts';
import type { LoginByName, LoginByPhone, ResetPassword, SendPhoneCaptcha } from '@p8/contract/auth';

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

/** A failed login: the error, plus whether the next attempt must carry a picture captcha. */
export class LoginFailure extends BizError {
  constructor(
    key: ConstructorParameters<typeof BizError>[0],
    readonly needCaptcha: boolean,
  ) {
    super(key, { data: { needCaptcha } });
  }
}

type AccountRow = typeof admin.$inferSelect & { tenantEnabled: boolean; tenantLogoff: boolean };

/**
 * The account a sign-in names: its tenant and id from the installation's directory of names and phones
 * (schema/auth.ts: the one lookup across tenants, by a shared table's key), then the account itself by its
 * key (tenant_id, id), like every read of a tenant table.
 */
async function findAccount(database: Database, by: { name: string } | { phone: string }): Promise<AccountRow | undefined> {
  const [entry] =
    'name' in by
      ? await database.db.select({ tenantId: loginName.tenantId, adminId: loginName.adminId }).from(loginName).where(eq(loginName.name, sql`lower(${by.name})`))
      : await database.db.select({ tenantId: loginPhone.tenantId, adminId: loginPhone.adminId }).from(loginPhone).where(eq(loginPhone.phone, by.phone));
  if (!entry) return undefined;
  const [row] = await database.db
    .select({ admin, tenantEnabled: tenant.enabled, tenantLogoff: tenant.isLogoff })
    .from(admin)
    .innerJoin(tenant, eq(tenant.id, admin.tenantId))
    .where(and(eq(admin.tenantId, entry.tenantId), eq(admin.id, entry.adminId)));
  return row ? { ...row.admin, tenantEnabled: row.tenantEnabled, tenantLogoff: row.tenantLogoff } : undefined;
}

/** Who holds a phone (tenant and account), from the directory; undefined when nobody does. */
async function phoneOwner(q: Pick<Database['db'], 'select'>, phone: string) {
  const [entry] = await q.select({ tenantId: loginPhone.tenantId, id: loginPhone.adminId }).from(loginPhone).where(eq(loginPhone.phone, phone));
  return entry;
}

function assertUsable(account: AccountRow) {
  if (!account.tenantEnabled || account.tenantLogoff) throw new BizError('TenantIsDisabled');
  if (!account.enabled || account.isLock) throw new BizError('AdminIsLock');
}

/**
 * Counts one sign-in attempt in one statement and returns the new count with the lock: parallel attempts
 * each get their own number, so no two of them act on the same count. A lock that has run out starts the
 * count afresh; an attempt numbered past the limit locks the account if nothing has locked it yet (its
 * predecessors may have been refused for their captcha before their password was compared).
 */
async function countAttempt(database: Database, config: Config, account: AccountRow) {
  const { lockAfterFailures, lockMinutes } = config.login;
  const expired = sql`${admin.lockedUntil} is not null and ${admin.lockedUntil} <= now()`;
  const [row] = await database.db
    .update(admin)
    .set({
      failedLogins: sql`case when ${expired} then 1 else ${admin.failedLogins} + 1 end`,
      lockedUntil: sql`case
        when ${expired} then null
        when ${admin.lockedUntil} is null and ${admin.failedLogins} + 1 > ${lockAfterFailures} then now() + make_interval(mins => ${lockMinutes})
        else ${admin.lockedUntil} end`,
    })
    .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)))
    .returning({ attempts: admin.failedLogins, lockedUntil: admin.lockedUntil });
  return row;
}

/**
 * Sign-in by account name. Every attempt is counted before its password is checked, and the decisions
 * are taken on the number the count returned: past `captchaAfterFailures` a picture captcha is required,
 * past `lockAfterFailures` nothing is checked any more, and the attempt numbered `lockAfterFailures`
 * locks the account for `lockMinutes` when its password is wrong. A successful sign-in resets the count.
 * So of any burst of parallel guesses at most `lockAfterFailures` passwords are ever compared.
 */
export async function loginByName(database: Database, config: Config, state: SharedState, input: LoginByName, client: ClientInfo): Promise<string> {
  const { captchaAfterFailures, lockAfterFailures, lockMinutes } = config.login;
  const account = await findAccount(database, { name: input.name });
  if (!account) throw new LoginFailure('AdminNotExist', false);
  assertUsable(account);

  let captchaChecked = false;
  const checkCaptcha = async () => {
    if (captchaChecked) return;
    captchaChecked = true;
    try {
      await consumeImgCaptcha(state, input.captchaId, input.captcha);
    } catch (error) {
      if (error instanceof BizError) throw new LoginFailure(error.key, true);
      throw error;
    }
  };
  // An attempt without the captcha that is already due is refused before it counts, so that nobody can
  // lock an account without solving captchas one request after another. (While a lock runs the attempt is
  // refused anyway; once it has run out the count starts afresh.)
  if (account.lockedUntil === null && account.failedLogins >= captchaAfterFailures) await checkCaptcha();

  const { attempts, lockedUntil } = await countAttempt(database, config, account);
  if ((lockedUntil && lockedUntil.getTime() > Date.now()) || attempts > lockAfterFailures) throw new LoginFailure('AdminTemporarilyLocked', true);
  if (attempts > captchaAfterFailures) await checkCaptcha();

  if (!(await verifyPassword(account.passwordHash, input.password))) {
    if (attempts >= lockAfterFailures) {
      await database.db
        .update(admin)
        .set({ lockedUntil: new Date(Date.now() + lockMinutes * 60_000) })
        .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
      throw new LoginFailure('AdminTemporarilyLocked', true);
    }
    throw new LoginFailure('PasswordError', attempts >= captchaAfterFailures);
  }
  return database.withSystem(async (tx) => {
    await tx
      .update(admin)
      .set({ failedLogins: 0, lockedUntil: null, lastLoginAt: new Date() })
      .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
    return openSession(tx, config, { tenantId: account.tenantId, adminId: account.id, ...client });
  });
}

export async function loginByPhone(database: Database, config: Config, state: SharedState, input: LoginByPhone, client: ClientInfo): Promise<string> {
  const account = await findAccount(database, { phone: input.phone });
  if (!account) throw new BizError('PhoneNotRegistered');
  assertUsable(account);
  return withSmsCode(state, config, { phone: input.phone, purpose: 'login', code: input.code }, () =>
    database.withSystem(async (tx) => {
      await tx
        .update(admin)
        .set({ failedLogins: 0, lockedUntil: null, lastLoginAt: new Date() })
        .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
      return openSession(tx, config, { tenantId: account.tenantId, adminId: account.id, ...client });
    }),
  );
}

/** Signs the caller out: revokes this session. */
export async function signOut(caller: RequestCaller) {
  await caller.database.withSystem((tx) => revokeSession(tx, caller.access, caller.account));
}

/** The caller's live sessions (not revoked, not expired, not idle), the current one marked. */
export async function liveSessions(caller: RequestCaller) {
  const { tenantId, adminId, sessionId } = caller.account;
  const idleSince = new Date(Date.now() - caller.config.session.idleMinutes * 60_000);
  // Sessions are not tenant rows under RLS: they are read on the owner connection, by the caller's own ids.
  const rows = await caller.database.db
    .select({ id: session.id, ip: session.ip, userAgent: session.userAgent, createdAt: session.createdAt, lastSeenAt: session.lastSeenAt })
    .from(session)
    .where(and(eq(session.tenantId, tenantId), eq(session.adminId, adminId), isNull(session.revokedAt), gt(session.expiresAt, new Date()), gt(session.lastSeenAt, idleSince)))
    .orderBy(desc(session.lastSeenAt));
  return rows.map((s) => ({ ...s, current: s.id === sessionId }));
}

/** Revokes the caller's other sessions; answers how many. */
export async function removeOtherSessions(caller: RequestCaller) {
  return { removed: await caller.database.withSystem((tx) => revokeOtherSessions(tx, caller.access, caller.account)) };
}

/**
 * Sends an SMS code for one of `purposes` after the picture captcha: a register code only to a phone no
 * account has, a login or forget code only to one an account has.
 */
export async function sendPhoneCode({ database, config, shared, sms }: ModuleDeps, body: SendPhoneCaptcha, ip: string, purposes: readonly string[]) {
  const { phone, type, captchaId, captcha } = body;
  if (!purposes.includes(type)) throw new BizError('ParamError', { additional: 'type' });
  await consumeImgCaptcha(shared, captchaId, captcha);
  const owner = await phoneOwner(database.db, phone);
  if (type === 'register' && owner) throw new BizError('PhoneIsRegistered');
  if (type !== 'register' && !owner) throw new BizError('PhoneNotRegistered');
  return issueSmsCode(shared, config, sms, { phone, purpose: type, ip });
}

/** Resets a forgotten password by SMS code; every session of the account ends. */
export async function resetPasswordBySms({ database, config, shared, access }: ModuleDeps, body: ResetPassword) {
  await withSmsCode(shared, config, { phone: body.phone, purpose: 'forget', code: body.code }, () =>
    database.withSystem(async (tx) => {
      const account = await phoneOwner(tx, body.phone);
      if (!account) throw new BizError('PhoneNotRegistered');
      await tx
        .update(admin)
        .set({ passwordHash: await hashPassword(body.password), failedLogins: 0, lockedUntil: null, updatedAt: new Date() })
        .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
      await revokeAllSessions(tx, access, account.tenantId, account.id);
    }),
  );
}
