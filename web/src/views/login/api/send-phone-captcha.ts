import type { SendPhoneCaptcha } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

export interface SentPhoneCaptcha {
  /** Resend countdown in seconds. */
  seconds: number;
  /** Only when the server runs with EXPOSE_CODES_FOR_TESTS. */
  code?: string;
}

/** POST /base/phoneCaptcha (login) or /base/phoneCaptcha/verify (register, forget). */
export function sendPhoneCaptcha(payload: SendPhoneCaptcha): Promise<SentPhoneCaptcha> {
  const url = payload.type === 'register' || payload.type === 'forget' ? '/base/phoneCaptcha/verify' : '/base/phoneCaptcha';
  return http.post<SentPhoneCaptcha>(url, payload, { silent: true });
}
