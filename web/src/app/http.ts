import { NO_LOADING_HEADER, Status, type Envelope, type Pagination } from '@p8/contract/envelope';
import type { RefusalDetails } from '@p8/contract/refusals';
import i18n, { loadErrorTexts, translateError } from '../locales/index.ts';
import { getToken } from '../stores/auth.ts';
import { getLanguage } from '../stores/global.ts';
import { feedback } from './feedback.ts';
import { refusalText } from './refusal-text.ts';
import { beginLoading, endLoading } from './loading.ts';
import { currentLocation, loginPathFor, navigateTo } from './navigate.ts';
import { clearSession } from './session.ts';

/**
 * The HTTP client on `fetch`: base `/api`, cookies included, a timeout, the
 * bearer token and the user's language on every call, JSON in and out, and the envelope handled once
 * here — callers get `data` on success and an `HttpError` (already shown to the user) on failure.
 */
export const API_BASE = '/api';
export const DEFAULT_TIMEOUT = 30_000;

type Primitive = string | number | boolean | null | undefined;
export type QueryParams = Record<string, Primitive | readonly Primitive[]>;

export interface RequestOptions {
  /** Query string; arrays are joined by commas (`notInId=1,2`), empty values are left out. */
  params?: QueryParams;
  /** JSON body (or FormData for uploads). */
  data?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds; default 30 s. */
  timeout?: number;
  /** Keep the global loading overlay hidden for this call (sends `x-no-loading: 1`). */
  noLoading?: boolean;
  /** Don't toast a failed call: the caller shows the error itself (e.g. beside a form field). */
  silent?: boolean;
  signal?: AbortSignal;
}

/** A failed call: an envelope with a non-zero status, an HTTP error, a timeout or a network failure. */
export class HttpError<T = unknown> extends Error {
  /** Envelope status, or 600000 for a timeout, or 0 when the transport failed before any envelope. */
  readonly status: number;
  /** HTTP status (0 when no response arrived). */
  readonly httpStatus: number;
  /** Catalogue key (`PasswordError`, `NetworkError`, `TimeOut`…). */
  readonly key: string;
  readonly remark?: string;
  readonly additional?: string;
  /** What a refusal names, with its figures (contract refusals.ts); the text already says it. */
  readonly details?: RefusalDetails;
  /** Envelope `data` of the failure (e.g. `{ needCaptcha }` after a failed login). */
  readonly data?: T;
  /** The text shown (or that would have been shown) to the user. */
  readonly text: string;

  constructor(init: { status: number; httpStatus: number; key: string; remark?: string; additional?: string; details?: RefusalDetails; data?: T; text: string }) {
    super(init.text);
    this.name = 'HttpError';
    this.status = init.status;
    this.httpStatus = init.httpStatus;
    this.key = init.key;
    this.remark = init.remark;
    this.additional = init.additional;
    this.details = init.details;
    this.data = init.data;
    this.text = init.text;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

export interface PagedResult<T> {
  data: T[];
  pagination: Pagination;
  /** Sums keyed by column prop, when the list call returns them. */
  statistics?: Record<string, number | string>;
}

/** The catalogue key shown for an HTTP status without an envelope. */
export function httpStatusKey(httpStatus: number, statusText = ''): string {
  switch (httpStatus) {
    case 400:
    case 405:
      return 'BadRequest';
    case 401:
      return 'NotLoggedIn';
    case 403:
      return 'Forbidden';
    case 404:
      return 'FileNotFound';
    case 408:
    case 504:
      return 'TimeOut';
    case 500:
    case 502:
    case 503:
      return 'ServerError';
    default:
      return statusText || 'NetworkError';
  }
}

export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      const items = value.filter((v) => v !== undefined && v !== null && v !== '');
      if (items.length) search.append(key, items.join(','));
    } else {
      search.append(key, String(value));
    }
  }
  const query = search.toString();
  return query ? `?${query}` : '';
}

function showError(text: string) {
  // The text as key: the same failure from several parallel calls shows once.
  feedback.message.error({ content: text, key: `http-error:${text}` });
}

let sessionExpiredHandled = false;

/** 40100: session gone on the server — forget it here and go to login (once for parallel calls). */
function handleSessionExpired(text: string) {
  const here = currentLocation();
  clearSession();
  if (sessionExpiredHandled) return;
  sessionExpiredHandled = true;
  setTimeout(() => (sessionExpiredHandled = false), 1500);
  showError(text);
  if (!here.startsWith('/login')) navigateTo(loginPathFor(here), { replace: true });
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).status === 'number';
}

/**
 * The text of a failed envelope: its remark or its key's translation, what its refusal names, and the
 * `additional` value of keys that carry no shape (a field name, a limit).
 */
export function envelopeErrorText(body: Pick<Envelope, 'message' | 'remark' | 'additional' | 'details'>, fallbackKey = 'NetworkError'): string {
  const base = body.remark || translateError(body.message || fallbackKey);
  const text = refusalText(base, body.details, getLanguage());
  return body.additional ? `${text}: ${body.additional}` : text;
}

async function envelopeError(body: Envelope, httpStatus: number, silent: boolean): Promise<HttpError> {
  // The first page carries the transport, sign-in and session texts only: any other key waits for the
  // whole catalogue (one small download; should it fail, the key itself is shown).
  for (const key of [body.message, body.status === Status.Unauthorized ? 'Unauthorized' : undefined]) {
    if (key && !i18n.exists(`error.${key}`)) await loadErrorTexts().catch(() => undefined);
  }
  const text = envelopeErrorText(body);
  const error = new HttpError({
    status: body.status,
    httpStatus,
    key: body.message || 'NetworkError',
    remark: body.remark,
    additional: body.additional,
    details: body.details,
    data: body.data,
    text,
  });
  if (body.status === Status.Unauthorized) handleSessionExpired(body.remark || translateError(body.message || 'Unauthorized'));
  else if (!silent) showError(text);
  return error;
}

function transportError(key: string, httpStatus: number, silent: boolean, status = 0): HttpError {
  const text = translateError(key);
  if (!silent) showError(text);
  return new HttpError({ status, httpStatus, key, text });
}

interface Sent {
  response: Response;
}

/** Sends the request; resolves with the response, or rejects with a shown HttpError on transport failure. */
async function send(method: string, url: string, options: RequestOptions, accept: string): Promise<Sent> {
  const headers: Record<string, string> = { Accept: accept, 'Accept-Language': getLanguage(), ...options.headers };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.noLoading) headers[NO_LOADING_HEADER] = '1';
  const counted = !Object.keys(headers).some((h) => h.toLowerCase() === NO_LOADING_HEADER);

  let body: BodyInit | undefined;
  if (options.data instanceof FormData || options.data instanceof Blob) {
    body = options.data;
  } else if (options.data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.data);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout ?? DEFAULT_TIMEOUT);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort);

  if (counted) beginLoading();
  try {
    const response = await fetch(`${API_BASE}${url}${buildQuery(options.params)}`, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: controller.signal,
    });
    return { response };
  } catch (cause) {
    const silent = !!options.silent;
    if (timedOut) throw transportError('TimeOut', 0, silent, Status.Timeout);
    if (options.signal?.aborted) throw cause;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      navigateTo('/500');
      throw new HttpError({ status: 0, httpStatus: 0, key: 'NetworkError', text: translateError('NetworkError') });
    }
    throw transportError('NetworkError', 0, silent);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
    if (counted) endLoading();
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One call; resolves with the whole successful envelope. */
async function requestEnvelope<T>(method: string, url: string, options: RequestOptions = {}): Promise<Envelope<T> & Record<string, unknown>> {
  const { response } = await send(method, url, options, 'application/json');
  const silent = !!options.silent;
  const body = await readJson(response);
  if (isEnvelope(body)) {
    if (body.status === Status.Success) return body as Envelope<T> & Record<string, unknown>;
    throw await envelopeError(body, response.status, silent);
  }
  if (!response.ok) throw transportError(httpStatusKey(response.status, response.statusText), response.status, silent);
  throw transportError('NetworkError', response.status, silent);
}

export async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(method, url, options)).data;
}

/** GET a paged list: `data` plus the `pagination` beside it. */
async function list<T>(url: string, params?: QueryParams, options: RequestOptions = {}): Promise<PagedResult<T>> {
  const envelope = await requestEnvelope<T[]>('GET', url, { ...options, params });
  const pagination = (envelope.pagination as Pagination | undefined) ?? {
    current: 1,
    pageSize: envelope.data?.length ?? 0,
    total: envelope.data?.length ?? 0,
  };
  const statistics = envelope.statistics as PagedResult<T>['statistics'];
  return { data: envelope.data ?? [], pagination, ...(statistics ? { statistics } : {}) };
}

/** File name from `Content-Disposition` (RFC 5987 `filename*` first). */
export function fileNameFrom(disposition: string | null, fallback = 'download'): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through */
    }
  }
  const plain = /filename\s*=\s*("?)([^";]+)\1/.exec(disposition);
  if (plain?.[2]) {
    try {
      return decodeURIComponent(plain[2].trim());
    } catch {
      return plain[2].trim();
    }
  }
  return fallback;
}

export interface Download {
  blob: Blob;
  fileName: string;
}

/** POST an export call and receive the file. Errors arrive as JSON envelopes. */
async function download(url: string, data?: unknown, options: RequestOptions = {}): Promise<Download> {
  const { response } = await send('POST', url, { ...options, data: data ?? {} }, '*/*');
  const silent = !!options.silent;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const body = await readJson(response);
    if (isEnvelope(body)) throw await envelopeError(body.status === Status.Success ? { ...body, status: Status.Error } : body, response.status, silent);
  }
  if (!response.ok) throw transportError(httpStatusKey(response.status, response.statusText), response.status, silent);
  return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('content-disposition')) };
}

/** Offers a blob to the user as a file. */
export function saveBlob(blob: Blob, fileName: string) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** POST an export call and save the file it returns. */
async function exportFile(url: string, data?: unknown, options?: RequestOptions & { fileName?: string }): Promise<void> {
  const file = await download(url, data, options);
  saveBlob(file.blob, options?.fileName ?? file.fileName);
}

export const http = {
  get: <T>(url: string, params?: QueryParams, options?: RequestOptions) => request<T>('GET', url, { ...options, params }),
  post: <T>(url: string, data?: unknown, options?: RequestOptions) => request<T>('POST', url, { ...options, data }),
  put: <T>(url: string, data?: unknown, options?: RequestOptions) => request<T>('PUT', url, { ...options, data }),
  /** DELETE sends its parameters in the JSON body (`{ ids: [...] }`). */
  delete: <T>(url: string, data?: unknown, options?: RequestOptions) => request<T>('DELETE', url, { ...options, data }),
  list,
  download,
  exportFile,
};

/** Translated text of any error a call may reject with. */
export function errorText(error: unknown): string {
  if (isHttpError(error)) return error.text;
  if (error instanceof Error && error.message) return error.message;
  return i18n.t('error.NetworkError');
}
