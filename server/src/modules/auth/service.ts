import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { admin, tenant } from '../../db/schema/index.ts';
import { openSession } from '../../core/auth.ts';
import { consumeImgCaptcha, withSmsCode } from '../../core/captcha.ts';
import type { SharedState } from '../../core/shared-state.ts';
import { BizError } from '../../core/errors.ts';
import { verifyPassword } from '../../core/passwords.ts';
import type { LoginByName, LoginByPhone } from '@p8/contract/auth';

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

async function findAccount(database: Database, where: ReturnType<typeof sql>): Promise<AccountRow | undefined> {
  const [row] = await database.db
    .select({ admin, tenantEnabled: tenant.enabled, tenantLogoff: tenant.isLogoff })
    .from(admin)
    .innerJoin(tenant, eq(tenant.id, admin.tenantId))
    .where(where)
    .limit(1);
  return row ? { ...row.admin, tenantEnabled: row.tenantEnabled, tenantLogoff: row.tenantLogoff } : undefined;
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
  const account = await findAccount(database, sql`lower(${admin.name}) = lower(${input.name})`);
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
  const account = await findAccount(database, sql`${admin.phone} = ${input.phone}`);
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
