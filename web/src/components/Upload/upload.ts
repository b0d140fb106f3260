import { CLOUD_UPLOAD_TYPE } from '@p8/contract/tenant-config';
import type { UploadKind, UploadResult } from '@p8/contract/upload';
import { useSystemConfigStore } from '../../app/system-config.ts';
import { useAuthStore } from '../../stores/auth.ts';
import { cloudUrl } from './cloud.ts';
import { forgetCloudToken, getCloudToken, nextCloudKey } from './cloud-token.ts';
import { xhrUpload, type UploadProgress } from './xhr.ts';

/**
 * One file to storage, wherever the public system config says (`system_upload_type`):
 * `qiniuyun` → straight to the cloud provider with a token from GET /base/api/qiniuyun/token and the
 * key `tenantId_YYYYMMDDHHmmss.ext`; anything else → our server, POST /admin/upload/img or /file.
 */
export type UploadTarget = 'img' | 'file';

export interface UploadedFile {
  url: string;
  name: string;
  size: number;
  /** Cloud uploads: the object key. */
  key?: string;
}

export interface UploadOptions {
  /** `img` for images (/admin/upload/img), `file` for everything else. */
  target: UploadTarget;
  /** `kind` form field: which rule the server checks (img, logo on /img; file, video, attachment, excel on /file). */
  kind?: UploadKind;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export function isCloudUpload(): boolean {
  return useSystemConfigStore.getState().config?.system_upload_type === CLOUD_UPLOAD_TYPE;
}

async function toCloud(file: File, options: UploadOptions): Promise<UploadedFile> {
  const tenantId = useAuthStore.getState().userInfo?.tenantId ?? 0;
  const token = await getCloudToken();
  const key = nextCloudKey(tenantId, file.name);
  const form = new FormData();
  form.append('token', token.token);
  form.append('key', key);
  form.append('file', file, file.name);
  try {
    const answer = await xhrUpload<{ key?: string } | undefined>({ url: token.uploadUrl, data: form, external: true, onProgress: options.onProgress, signal: options.signal });
    const stored = answer?.key || key;
    return { url: cloudUrl(token.domain, stored), name: file.name, size: file.size, key: stored };
  } catch (error) {
    // A refused token (revoked, clock skew) is not kept for the next file.
    forgetCloudToken();
    throw error;
  }
}

async function toServer(file: File, options: UploadOptions): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  if (options.kind) form.append('kind', options.kind);
  const answer = await xhrUpload<UploadResult>({
    url: `/admin/upload/${options.target}`,
    data: form,
    onProgress: options.onProgress,
    signal: options.signal,
  });
  return { url: answer.url, name: answer.name ?? file.name, size: answer.size ?? file.size };
}

export function uploadFile(file: File, options: UploadOptions): Promise<UploadedFile> {
  return isCloudUpload() ? toCloud(file, options) : toServer(file, options);
}

/** Our own server, whatever the upload type (the rich-text editor's default). */
export function uploadToServer(file: File, options: UploadOptions): Promise<UploadedFile> {
  return toServer(file, options);
}
