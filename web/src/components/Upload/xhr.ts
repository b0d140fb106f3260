import { NO_LOADING_HEADER, Status, type Envelope } from '@p8/contract/envelope';
import { feedback } from '../../app/feedback.ts';
import { API_BASE, envelopeErrorText, HttpError, httpStatusKey } from '../../app/http.ts';
import { currentLocation, loginPathFor, navigateTo } from '../../app/navigate.ts';
import { clearSession } from '../../app/session.ts';
import { translateError } from '../../locales/index.ts';
import { getToken } from '../../stores/auth.ts';
import { getLanguage } from '../../stores/global.ts';

/**
 * Multipart uploads with progress. `fetch` reports no upload progress, so uploads go through
 * XMLHttpRequest here, with the same rules as the HTTP client (app/http.ts): base `/api`, bearer
 * token, language, the envelope's status handled (40100 ends the session), failures shown once.
 */
export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100. */
  percent: number;
}

export interface XhrUploadOptions {
  /** Where: an API path (`/admin/upload/img`, prefixed by /api) or, with `external`, a full url. */
  url: string;
  data: FormData;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** A third party (the cloud provider): no token, no envelope — the JSON answer is returned as is. */
  external?: boolean;
  /** Don't toast a failure. */
  silent?: boolean;
  /** Milliseconds; default 30 min (large files). */
  timeout?: number;
}

function fail(key: string, httpStatus: number, silent: boolean, init: Partial<Pick<HttpError, 'remark' | 'additional' | 'details' | 'status'>> & { text?: string } = {}): HttpError {
  const text = init.text ?? translateError(key);
  if (!silent) feedback.message.error({ content: text, key: `http-error:${text}` });
  return new HttpError({ status: init.status ?? 0, httpStatus, key, remark: init.remark, additional: init.additional, details: init.details, text });
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isEnvelope = (body: unknown): body is Envelope => typeof body === 'object' && body !== null && typeof (body as Envelope).status === 'number';

/** POSTs the form; resolves with the envelope's `data` (or, `external`, the provider's JSON answer). */
export function xhrUpload<T>({ url, data, onProgress, signal, external = false, silent = false, timeout = 30 * 60_000 }: XhrUploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', external ? url : `${API_BASE}${url}`);
    xhr.timeout = timeout;
    if (!external) {
      xhr.withCredentials = true;
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.setRequestHeader('Accept-Language', getLanguage());
      // The uploader shows its own progress: keep the global overlay away.
      xhr.setRequestHeader(NO_LOADING_HEADER, '1');
      const token = getToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    }
    xhr.upload.onprogress = (event) => {
      if (!onProgress || !event.lengthComputable) return;
      onProgress({ loaded: event.loaded, total: event.total, percent: event.total ? Math.min(100, Math.round((event.loaded / event.total) * 100)) : 0 });
    };
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      if (external) {
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
        else reject(fail('UploadFailed', xhr.status, silent));
        return;
      }
      if (isEnvelope(body)) {
        if (body.status === Status.Success) {
          resolve(body.data as T);
          return;
        }
        const text = envelopeErrorText(body, 'UploadFailed');
        if (body.status === Status.Unauthorized) {
          const here = currentLocation();
          clearSession();
          if (!here.startsWith('/login')) navigateTo(loginPathFor(here), { replace: true });
        }
        reject(
          fail(body.message || 'UploadFailed', xhr.status, silent, {
            status: body.status,
            remark: body.remark,
            additional: body.additional,
            details: body.details,
            text,
          }),
        );
        return;
      }
      reject(fail(xhr.status >= 400 ? httpStatusKey(xhr.status, xhr.statusText) : 'NetworkError', xhr.status, silent));
    };
    xhr.onerror = () => reject(fail('NetworkError', 0, silent));
    xhr.ontimeout = () => reject(fail('TimeOut', 0, silent, { status: Status.Timeout }));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('Upload aborted', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(data);
  });
}
