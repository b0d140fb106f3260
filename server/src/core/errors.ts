import { Status } from '@p8/contract/envelope';
import type { ErrorKey } from '@p8/contract/errors';

/**
 * A business error: a catalogue key (translated by the client), an envelope status, and optionally
 * the offending value (`additional`) and a human remark. Throw it anywhere inside a request; the
 * error handler turns it into the envelope and the transaction rolls back.
 */
export class BizError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  readonly additional?: string;
  readonly remark?: string;
  /** Optional payload of a failure (e.g. `{ needCaptcha }` of a failed login). */
  data?: unknown;

  constructor(key: ErrorKey, options: { status?: number; additional?: unknown; remark?: string; data?: unknown } = {}) {
    super(key);
    this.key = key;
    this.status = options.status ?? Status.BadRequest;
    this.additional = options.additional === undefined ? undefined : String(options.additional);
    this.remark = options.remark;
    this.data = options.data;
  }
}

export const unauthorized = (key: ErrorKey = 'Unauthorized') => new BizError(key, { status: Status.Unauthorized });
export const forbidden = (key: ErrorKey = 'Forbidden', additional?: string) =>
  new BizError(key, { status: Status.Forbidden, additional });
