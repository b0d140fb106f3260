import type { ImgCaptcha } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** GET /base/imgCaptcha — a fresh single-use picture captcha (SVG data URL). */
export function getImgCaptcha(): Promise<ImgCaptcha> {
  return http.get<ImgCaptcha>('/base/imgCaptcha', undefined, { noLoading: true });
}
