import { createHash, randomInt, randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Config } from '../config.ts';
import type { SmsPurpose } from '@p8/contract/auth';
import { BizError } from './errors.ts';
import type { SharedState } from './shared-state.ts';

const hashCode = (code: string) => createHash('sha256').update(code.trim().toLowerCase()).digest('hex');

/*
 * Captcha and SMS code state lives in the shared state (core/shared-state.ts), in Redis when several
 * processes serve: a code issued by one process is checked by another, and every limit is decided on the
 * value an atomic step returned.
 */
const imgKey = (captchaId: string) => `captcha:img:${captchaId}`;
const smsCodeKey = (purpose: SmsPurpose, phone: string) => `sms:code:${purpose}:${phone}`;
/** Wrong-guess counter of the current code of a phone and purpose (reset when a new code is sent). */
export const smsTriesKey = (purpose: SmsPurpose, phone: string) => `sms:tries:${purpose}:${phone}`;
const smsResendKey = (phone: string) => `sms:resend:${phone}`;
const HOUR = 3600;
/** An SMS code is kept this long past its expiry, so that a late answer hears "expired" rather than "wrong". */
const SMS_EXPIRED_GRACE_SECONDS = 600;

/** Issues a picture captcha: the SVG goes to the client, only the hash of its text is kept. */
export async function issueImgCaptcha(state: SharedState, config: Config) {
  const { data, text } = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f0f2f5' });
  const captchaId = randomUUID();
  await state.set(imgKey(captchaId), hashCode(text), config.captcha.imgTtlSeconds);
  return {
    captchaId,
    image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`,
    ...(config.exposeCodes ? { code: text } : {}),
  };
}

/** Checks and consumes a picture captcha: single use, whether the answer was right or not. */
export async function consumeImgCaptcha(state: SharedState, captchaId: string | undefined, answer: string | undefined) {
  if (!captchaId || !answer) throw new BizError('ImgCaptchaRequired');
  const stored = await state.take(imgKey(captchaId));
  if (!stored) throw new BizError('ImgCaptchaExpired');
  if (stored !== hashCode(answer)) throw new BizError('ImgCaptchaError');
}

/** Sends SMS codes. The default implementation writes the code to the server log (README). */
export interface SmsSender {
  send(phone: string, code: string, purpose: SmsPurpose): Promise<void>;
  /** A notice (e.g. a new order arrived): the provider's notice template filled with `params`. */
  notify(phone: string, template: SmsNotice, params: Record<string, string>): Promise<void>;
}

/** Notice templates an SMS provider is set up with. */
export type SmsNotice = 'newServiceOrder' | 'newMallOrder';

export function createSmsSender(config: Config, log: { info: (obj: object, msg: string) => void }): SmsSender {
  if (config.sms.provider !== 'log') throw new Error(`unknown SMS_PROVIDER "${config.sms.provider}"`);
  return {
    async send(phone, code, purpose) {
      log.info({ phone, purpose, code }, 'SMS code (log sender: no SMS is really sent)');
    },
    async notify(phone, template, params) {
      log.info({ phone, template, params }, 'SMS notice (log sender: no SMS is really sent)');
    },
  };
}

/**
 * Issues an SMS code after the rate limits: one per phone per resend interval, a cap per phone and per
 * IP per hour. Codes are kept hashed; a new code replaces the phone's previous one for that purpose.
 */
export async function issueSmsCode(
  state: SharedState,
  config: Config,
  sender: SmsSender,
  request: { phone: string; purpose: SmsPurpose; ip?: string },
): Promise<{ seconds: number; code?: string }> {
  const { phone, purpose, ip } = request;
  // Of parallel sends to one phone exactly one takes the resend slot; the hourly caps count only those.
  if (!(await state.setIfAbsent(smsResendKey(phone), '1', config.captcha.smsResendSeconds))) throw new BizError('SmsSendTooFrequent');
  const perPhone = await state.incr(`sms:hour:phone:${phone}`, HOUR);
  const perIp = ip ? await state.incr(`sms:hour:ip:${ip}`, HOUR) : 0;
  if (perPhone > config.captcha.smsPerPhonePerHour || perIp > config.captcha.smsPerIpPerHour) throw new BizError('SmsSendTooFrequent');

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const stored: StoredSmsCode = { hash: hashCode(code), expiresAt: Date.now() + config.captcha.smsTtlSeconds * 1000 };
  const ttl = config.captcha.smsTtlSeconds + SMS_EXPIRED_GRACE_SECONDS;
  await state.del(smsTriesKey(purpose, phone));
  await state.set(smsCodeKey(purpose, phone), JSON.stringify(stored), ttl);
  try {
    await sender.send(phone, code, purpose);
  } catch {
    // Nothing was sent: the code is void and the phone may ask again at once.
    await state.del(smsCodeKey(purpose, phone));
    await state.del(smsResendKey(phone));
    throw new BizError('SendPhoneCaptchaError');
  }
  return { seconds: config.captcha.smsResendSeconds, ...(config.exposeCodes ? { code } : {}) };
}

interface StoredSmsCode {
  hash: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export const SMS_MAX_ATTEMPTS = 5;

/**
 * Runs `step` with a checked and consumed SMS code. Every answer is counted first (an atomic increment),
 * so that of any number of parallel guesses only the first five are compared; the fifth wrong one burns
 * the code. When `step` fails the code is put back, so that the user can correct the form and retry.
 */
export async function withSmsCode<T>(
  state: SharedState,
  config: Config,
  answer: { phone: string; purpose: SmsPurpose; code: string },
  step: () => Promise<T>,
): Promise<T> {
  const key = smsCodeKey(answer.purpose, answer.phone);
  const ttl = config.captcha.smsTtlSeconds + SMS_EXPIRED_GRACE_SECONDS;
  const tries = await state.incr(smsTriesKey(answer.purpose, answer.phone), ttl);
  const raw = await state.get(key);
  if (!raw) throw new BizError('PhoneCaptchaError');
  const stored = JSON.parse(raw) as StoredSmsCode;
  if (stored.expiresAt < Date.now()) throw new BizError('PhoneCaptchaExpired');
  if (tries > SMS_MAX_ATTEMPTS) {
    await state.del(key);
    throw new BizError('PhoneCaptchaError');
  }
  if (stored.hash !== hashCode(answer.code)) {
    if (tries >= SMS_MAX_ATTEMPTS) await state.del(key);
    throw new BizError('PhoneCaptchaError');
  }
  // Single use: of parallel right answers only the one that takes the code goes on.
  if ((await state.take(key)) !== raw) throw new BizError('PhoneCaptchaError');
  try {
    return await step();
  } catch (error) {
    const secondsLeft = Math.ceil((stored.expiresAt - Date.now()) / 1000);
    if (secondsLeft > 0) await state.setIfAbsent(key, raw, secondsLeft + SMS_EXPIRED_GRACE_SECONDS);
    throw error;
  }
}
