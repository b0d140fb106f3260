import {
  ATTACHMENT_EXTENSIONS,
  EXCEL_EXTENSIONS,
  IMAGE_EXTENSIONS,
  LOGO_EXTENSIONS,
  UPLOAD_MAX_FILES,
  UPLOAD_MAX_IMAGES,
  VIDEO_EXTENSIONS,
} from '@p8/contract/upload';

/**
 * Upload rules (formats, sizes and counts), checked before a file leaves the browser (the server checks them
 * again by content, with the same lists from the contract): accepted formats, size limit, count limit.
 * Pure; tested in rules.test.ts.
 */
export const MB = 1024 * 1024;

export const IMAGE_TYPES = IMAGE_EXTENSIONS;
/** png, jpg or gif (jpeg being jpg under its other name). */
export const LOGO_TYPES = LOGO_EXTENSIONS;
export const VIDEO_TYPES = VIDEO_EXTENSIONS;
export const ATTACHMENT_TYPES = ATTACHMENT_EXTENSIONS;
export const EXCEL_TYPES = EXCEL_EXTENSIONS;

export const IMAGE_MAX_MB = 5;
export const LOGO_MAX_MB = 5;
export const FILE_MAX_MB = 500;
export const EXCEL_MAX_MB = 200;
export const IMAGE_LIMIT = UPLOAD_MAX_IMAGES;
export const FILE_LIMIT = UPLOAD_MAX_FILES;

/** MIME types that stand for an extension whose name differs (`image/jpeg` → jpg, jpeg…). */
const MIME_ALIASES: Record<string, string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/pjpeg': ['pjpeg', 'jpg', 'jpeg'],
  'image/png': ['png'],
  'image/apng': ['apng', 'png'],
  'image/gif': ['gif'],
  'image/bmp': ['bmp'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'video/mp4': ['mp4'],
  'application/pdf': ['pdf'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
};

export interface FileRule {
  /** Accepted extensions, lower case without dots; omitted or empty = any type. */
  accept?: readonly string[];
  /** Size limit in MB. */
  maxSizeMB: number;
  /** Count limit (files in the value plus those being added). */
  limit?: number;
  /** Which "too many" message: images ("at most N images") or files ("at most N, remove first"). */
  kind?: 'image' | 'file';
}

export type RuleViolation =
  | { key: 'wrongFormat'; types: string }
  | { key: 'tooBig'; size: string }
  | { key: 'tooManyImages' | 'tooManyFiles'; count: number };

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Whether a file's extension (or, for a name without one, its MIME type) is accepted. */
export function isAccepted(file: { name: string; type?: string }, accept: readonly string[] | undefined): boolean {
  if (!accept?.length) return true;
  const allowed = accept.map((a) => a.replace(/^\./, '').toLowerCase());
  const ext = extensionOf(file.name);
  if (ext) return allowed.includes(ext);
  const byMime = MIME_ALIASES[(file.type ?? '').toLowerCase()] ?? [];
  return byMime.some((e) => allowed.includes(e));
}

/** "5MB", "500MB", "1.5GB". */
export function formatSize(mb: number): string {
  if (mb >= 1024) return `${+(mb / 1024).toFixed(1)}GB`;
  if (mb < 1) return `${Math.round(mb * 1024)}KB`;
  return `${+mb.toFixed(1)}MB`;
}

/**
 * The first rule a file breaks, or null. `existing` is how many files the field already holds,
 * `position` the file's index among those being added in the same pick.
 */
export function checkFile(
  file: { name: string; size: number; type?: string },
  rule: FileRule,
  existing = 0,
  position = 0,
): RuleViolation | null {
  if (rule.limit !== undefined && existing + position >= rule.limit) {
    return { key: rule.kind === 'image' ? 'tooManyImages' : 'tooManyFiles', count: rule.limit };
  }
  if (!isAccepted(file, rule.accept)) return { key: 'wrongFormat', types: (rule.accept ?? []).join(', ') };
  if (file.size > rule.maxSizeMB * MB) return { key: 'tooBig', size: formatSize(rule.maxSizeMB) };
  return null;
}

/** The `accept` attribute of the file input: `.png,.jpg,…` (empty = any). */
export function acceptAttribute(accept: readonly string[] | undefined): string | undefined {
  return accept?.length ? accept.map((a) => `.${a.replace(/^\./, '')}`).join(',') : undefined;
}

/** A readable name for a stored url: its last path segment, decoded. */
export function fileNameOfUrl(url: string): string {
  const clean = url.split(/[?#]/)[0];
  const last = clean.slice(clean.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || url;
  } catch {
    return last || url;
  }
}

/** The value as a list of urls, whatever shape the form holds. */
export function urlsOf(value: string | readonly string[] | null | undefined): string[] {
  if (!value) return [];
  if (typeof value === 'string') return value ? [value] : [];
  return value.filter((v): v is string => typeof v === 'string' && v.length > 0);
}
