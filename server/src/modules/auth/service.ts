import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { admin, tenant } from '../../db/schema/index.ts';
import { openSession } from '../../core/auth.ts';
import { consumeImgCaptcha, consumeSmsCode, withSmsCode } from '../../core/captcha.ts';
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
 * Sign-in by account name. After `captchaAfterFailures` failures a picture captcha is required; after
 * `lockAfterFailures` the account locks for `lockMinutes`. The failure count is written in its own
 * transaction so that it survives the failed request.
 */
export async function loginByName(database: Database, config: Config, input: LoginByName, client: ClientInfo): Promise<string> {
  const account = await findAccount(database, sql`lower(${admin.name}) = lower(${input.name})`);
  if (!account) throw new LoginFailure('AdminNotExist', false);
  assertUsable(account);
  if (account.lockedUntil && account.lockedUntil.getTime() > Date.now()) throw new LoginFailure('AdminTemporarilyLocked', true);

  const captchaNeeded = account.failedLogins >= config.login.captchaAfterFailures;
  if (captchaNeeded) {
    try {
      await database.withSystem((tx) => consumeImgCaptcha(tx, input.captchaId, input.captcha));
    } catch (error) {
      if (error instanceof BizError) throw new LoginFailure(error.key, true);
      throw error;
    }
  }
  if (!(await verifyPassword(account.passwordHash, input.password))) {
    const failures = account.failedLogins + 1;
    const lock = failures >= config.login.lockAfterFailures;
    await database.db
      .update(admin)
      .set({
        failedLogins: lock ? 0 : failures,
        lockedUntil: lock ? new Date(Date.now() + config.login.lockMinutes * 60_000) : account.lockedUntil,
      })
      .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
    if (lock) throw new LoginFailure('AdminTemporarilyLocked', true);
    throw new LoginFailure('PasswordError', failures >= config.login.captchaAfterFailures);
  }
  return database.withSystem(async (tx) => {
    await tx
      .update(admin)
      .set({ failedLogins: 0, lockedUntil: null, lastLoginAt: new Date() })
      .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
    return openSession(tx, config, { tenantId: account.tenantId, adminId: account.id, ...client });
  });
}

export async function loginByPhone(database: Database, config: Config, input: LoginByPhone, client: ClientInfo): Promise<string> {
  const account = await findAccount(database, sql`${admin.phone} = ${input.phone}`);
  if (!account) throw new BizError('PhoneNotRegistered');
  assertUsable(account);
  return withSmsCode(database, () =>
    database.withSystem(async (tx) => {
      await consumeSmsCode(tx, input.phone, 'login', input.code);
      await tx
        .update(admin)
        .set({ failedLogins: 0, lockedUntil: null, lastLoginAt: new Date() })
        .where(and(eq(admin.tenantId, account.tenantId), eq(admin.id, account.id)));
      return openSession(tx, config, { tenantId: account.tenantId, adminId: account.id, ...client });
    }),
  );
}
