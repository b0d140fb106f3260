import type { CloudUploadToken } from '@p8/contract/upload';

/**
 * Rules of direct cloud uploads: when a token stops being used
 * (10 s before it expires), the object key `tenantId_YYYYMMDDHHmmss.ext`, the resulting url.
 * Pure; tested in cloud.test.ts. The token cache itself is cloud-token.ts.
 */
export const TOKEN_EARLY_SECONDS = 10;
/** The provider's upload endpoint when the token answer names none. */
export const DEFAULT_CLOUD_UPLOAD_URL = 'https://upload.qiniup.com';

/**
 * GET /base/api/qiniuyun/token (`CloudUploadToken` of the contract). `expired` is read as seconds of
 * lifetime, or, when it looks like one, as a Unix time in seconds; an empty `uploadUrl` means the
 * provider's default endpoint.
 */
export type CloudTokenAnswer = Omit<CloudUploadToken, 'uploadUrl'> & { uploadUrl?: string };

export interface CloudToken {
  token: string;
  domain: string;
  uploadUrl: string;
  /** Epoch ms after which the token is not used any more (10 s before the real expiry). */
  expiresAt: number;
}

/** A Unix time in seconds is past 2001-09-09; a lifetime never is. */
const UNIX_SECONDS = 1_000_000_000;

/** The time (epoch ms) to stop using a token: its expiry less 10 s. */
export function tokenExpiresAt(expired: number, now: number): number {
  const seconds = Number(expired);
  if (!Number.isFinite(seconds) || seconds <= 0) return now; // unusable: ask again next time
  const expiry = seconds >= UNIX_SECONDS ? seconds * 1000 : now + seconds * 1000;
  return expiry - TOKEN_EARLY_SECONDS * 1000;
}

export function isTokenUsable(token: CloudToken | null | undefined, now: number): token is CloudToken {
  return !!token && !!token.token && now < token.expiresAt;
}

export function toCloudToken(answer: CloudTokenAnswer, now: number): CloudToken {
  return {
    token: answer.token,
    domain: answer.domain.replace(/\/+$/, ''),
    uploadUrl: answer.uploadUrl || DEFAULT_CLOUD_UPLOAD_URL,
    expiresAt: tokenExpiresAt(answer.expired, now),
  };
}

/** `YYYYMMDDHHmmss` in local time. */
export function timestampOf(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(date.getFullYear(), 4)}${p(date.getMonth() + 1)}${p(date.getDate())}${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/**
 * The object key of a cloud upload: `tenantId_YYYYMMDDHHmmss.ext`. Several files in the same
 * second would share that name, so from the second one on a counter follows the time (`…_2.ext`).
 */
export function cloudKey(tenantId: number | string, date: Date, fileName: string, sequence = 1): string {
  const dot = fileName.lastIndexOf('.');
  const ext = dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
  const base = `${tenantId}_${timestampOf(date)}${sequence > 1 ? `_${sequence}` : ''}`;
  return ext ? `${base}.${ext}` : base;
}

/** The public url of an uploaded object. */
export function cloudUrl(domain: string, key: string): string {
  const base = /^https?:\/\//i.test(domain) ? domain : `https://${domain}`;
  return `${base.replace(/\/+$/, '')}/${key}`;
}
