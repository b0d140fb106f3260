import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Config } from '../config.ts';
import type { Database, Tx } from '../db/connection.ts';
import { captcha } from '../db/schema/index.ts';
import type { SmsPurpose } from '@p8/contract/auth';
import { BizError } from './errors.ts';

const hashCode = (code: string) => createHash('sha256').update(code.trim().toLowerCase()).digest('hex');

/** Issues a picture captcha: the SVG goes to the client, only the hash of its text is kept. */
export async function issueImgCaptcha(tx: Tx, config: Config, ip?: string) {
  const { data, text } = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f0f2f5' });
  const [row] = await tx
    .insert(captcha)
    .values({ kind: 'img', codeHash: hashCode(text), ip, expiresAt: new Date(Date.now() + config.captcha.imgTtlSeconds * 1000) })
    .returning({ id: captcha.id });
  return {
    captchaId: row.id,
    image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`,
    ...(config.exposeCodes ? { code: text } : {}),
  };
}

/** Checks and consumes a picture captcha: single use, whether the answer was right or not. */
export async function consumeImgCaptcha(tx: Tx, captchaId: string | undefined, answer: string | undefined) {
  if (!captchaId || !answer) throw new BizError('ImgCaptchaRequired');
  const [row] = await tx
    .update(captcha)
    .set({ usedAt: new Date() })
    .where(and(eq(captcha.id, captchaId), eq(captcha.kind, 'img'), isNull(captcha.usedAt)))
    .returning();
  if (!row) throw new BizError('ImgCaptchaExpired');
  if (row.expiresAt.getTime() < Date.now()) throw new BizError('ImgCaptchaExpired');
  if (row.codeHash !== hashCode(answer)) throw new BizError('ImgCaptchaError');
}

/** Sends SMS codes. The default implementation writes the code to the server log (README). */
export interface SmsSender {
  send(phone: string, code: string, purpose: SmsPurpose): Promise<void>;
}

export function createSmsSender(config: Config, log: { info: (obj: object, msg: string) => void }): SmsSender {
  if (config.sms.provider !== 'log') throw new Error(`unknown SMS_PROVIDER "${config.sms.provider}"`);
  return {
    async send(phone, code, purpose) {
      log.info({ phone, purpose, code }, 'SMS code (log sender: no SMS is really sent)');
    },
  };
}

/**
 * Issues an SMS code after the rate limits: one per phone per resend interval, a cap per phone and per
 * IP per hour. Codes are kept hashed and are single use.
 */
export async function issueSmsCode(
  tx: Tx,
  config: Config,
  sender: SmsSender,
  request: { phone: string; purpose: SmsPurpose; ip?: string },
): Promise<{ seconds: number; code?: string }> {
  const hourAgo = new Date(Date.now() - 3600_000);
  const [last] = await tx
    .select({ createdAt: captcha.createdAt })
    .from(captcha)
    .where(and(eq(captcha.kind, 'sms'), eq(captcha.target, request.phone)))
    .orderBy(desc(captcha.createdAt))
    .limit(1);
  if (last && Date.now() - last.createdAt.getTime() < config.captcha.smsResendSeconds * 1000) throw new BizError('SmsSendTooFrequent');
  const [{ perPhone }] = await tx
    .select({ perPhone: sql<number>`count(*)::int` })
    .from(captcha)
    .where(and(eq(captcha.kind, 'sms'), eq(captcha.target, request.phone), gt(captcha.createdAt, hourAgo)));
  const [{ perIp }] = request.ip
    ? await tx
        .select({ perIp: sql<number>`count(*)::int` })
        .from(captcha)
        .where(and(eq(captcha.kind, 'sms'), eq(captcha.ip, request.ip), gt(captcha.createdAt, hourAgo)))
    : [{ perIp: 0 }];
  if (perPhone >= config.captcha.smsPerPhonePerHour || perIp >= config.captcha.smsPerIpPerHour) throw new BizError('SmsSendTooFrequent');

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await tx.insert(captcha).values({
    kind: 'sms',
    target: request.phone,
    purpose: request.purpose,
    codeHash: hashCode(code),
    ip: request.ip,
    expiresAt: new Date(Date.now() + config.captcha.smsTtlSeconds * 1000),
  });
  try {
    await sender.send(request.phone, code, request.purpose);
  } catch {
    throw new BizError('SendPhoneCaptchaError');
  }
  return { seconds: config.captcha.smsResendSeconds, ...(config.exposeCodes ? { code } : {}) };
}

export const SMS_MAX_ATTEMPTS = 5;

/** A wrong SMS code; the route records the attempt after its transaction rolled back. */
export class SmsCodeMismatch extends BizError {
  constructor(readonly captchaId: string) {
    super('PhoneCaptchaError');
  }
}

/** Counts a wrong SMS code; the fifth wrong answer burns the code. */
export async function recordSmsAttempt(tx: Tx, captchaId: string) {
  await tx
    .update(captcha)
    .set({ attempts: sql`${captcha.attempts} + 1`, usedAt: sql`case when ${captcha.attempts} + 1 >= ${SMS_MAX_ATTEMPTS} then now() else null end` })
    .where(eq(captcha.id, captchaId));
}

/** Checks and consumes the latest unused SMS code of a phone for a purpose. */
export async function consumeSmsCode(tx: Tx, phone: string, purpose: SmsPurpose, code: string) {
  const [row] = await tx
    .select()
    .from(captcha)
    .where(and(eq(captcha.kind, 'sms'), eq(captcha.target, phone), eq(captcha.purpose, purpose), isNull(captcha.usedAt)))
    .orderBy(desc(captcha.createdAt))
    .limit(1);
  if (!row) throw new BizError('PhoneCaptchaError');
  if (row.expiresAt.getTime() < Date.now()) throw new BizError('PhoneCaptchaExpired');
  if (row.codeHash !== hashCode(code)) {
    // The failed attempt must persist although the request fails, so it is counted outside this transaction.
    throw new SmsCodeMismatch(row.id);
  }
  await tx.update(captcha).set({ usedAt: new Date() }).where(eq(captcha.id, row.id));
}

/** Runs a step that checks an SMS code; a wrong code is counted even though the step fails. */
export async function withSmsCode<T>(database: Pick<Database, 'withSystem'>, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof SmsCodeMismatch) await database.withSystem((tx) => recordSmsAttempt(tx, error.captchaId));
    throw error;
  }
}

