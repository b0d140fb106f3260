/**
 * The response envelope every API call returns.
 * `message` carries a catalogue key (see errors.ts) that the client translates as `error.<key>`.
 */
import type { RefusalDetails } from './refusals.ts';

export const Status = {
  Success: 0,
  Error: 500,
  BadRequest: 40001,
  Unauthorized: 40100,
  Forbidden: 40300,
  Timeout: 600000,
} as const;
export type StatusCode = (typeof Status)[keyof typeof Status];

export interface Envelope<T = unknown> {
  status: number;
  message: string;
  remark?: string;
  additional?: string;
  /** What a refusal is about and its figures (refusals.ts): names and decimal text, never ids. */
  details?: RefusalDetails;
  data: T;
}

export interface Pagination {
  current: number;
  pageSize: number;
  total: number;
}

export interface PagedEnvelope<T> extends Envelope<T[]> {
  pagination: Pagination;
}

/** HTTP status that mirrors an envelope status. */
export function httpStatusOf(status: number): number {
  switch (status) {
    case Status.Success:
      return 200;
    case Status.BadRequest:
      return 400;
    case Status.Unauthorized:
      return 401;
    case Status.Forbidden:
      return 403;
    default:
      return status >= 40000 && status < 50000 ? 400 : 500;
  }
}

/** Header a request sends to keep the global loading overlay hidden. */
export const NO_LOADING_HEADER = 'x-no-loading';
/** Header carrying the user's language so server texts (remarks) can follow it. */
export const LANGUAGE_HEADER = 'accept-language';
