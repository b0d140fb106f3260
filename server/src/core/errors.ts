import { Status } from '@p8/contract/envelope';
import type { ErrorKey } from '@p8/contract/errors';
import { microText, type Micro } from '@p8/contract/bills/decimal';
import { isRefusalKey, refusalShapes, type RefusalDetails, type RefusalShape } from '@p8/contract/refusals';

/**
 * A business error: a catalogue key (translated by the client), an envelope status, and optionally
 * the offending value (`additional`), what a refusal is about with its figures (`details`, named and
 * declared per key in the contract's refusals.ts) and a human remark. Throw it anywhere inside a request; the
 * error handler turns it into the envelope and the transaction rolls back.
 */
export class BizError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  readonly additional?: string;
  readonly remark?: string;
  /** Named by the unit of work (core/refusals.ts) when the error carries `refs`. */
  details?: RefusalDetails;
  /** Ids of what a refusal is about, named into `details` before the transaction rolls back. */
  refs?: RefusalRefs;
  /** Optional payload of a failure (e.g. `{ needCaptcha }` of a failed login). */
  data?: unknown;

  constructor(key: ErrorKey, options: { status?: number; additional?: unknown; details?: RefusalDetails; remark?: string; data?: unknown } = {}) {
    super(key);
    this.key = key;
    this.status = options.status ?? Status.BadRequest;
    this.additional = options.additional === undefined ? undefined : String(options.additional);
    this.remark = options.remark;
    this.details = options.details;
    this.data = options.data;
  }
}

/**
 * What a refusal is about, by id: the unit of work names them into `details` (core/refusals.ts `nameRefusal`).
 */
export interface RefusalRefs {
  /** A saved bill line: its number (and, when no bill is named otherwise, nothing more). */
  lineId?: number;
  materialId?: number | null;
  warehouseId?: number | null;
  locationId?: number | null;
  fundAccountId?: number;
  partnerId?: number | null;
  billId?: number;
}

type Values = Omit<RefusalDetails, 'need' | 'have' | 'measure'> & { need?: Micro; have?: Micro };

/**
 * The refusal `key` about `refs` with `values` (figures in millionths, as decimal.ts keeps them). Any key may
 * name a line or records this way; the keys with figures declare what they carry (contract refusals.ts).
 */
export function refusal(key: ErrorKey, refs: RefusalRefs, values: Values = {}): BizError {
  const { need, have, ...rest } = values;
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== ''));
  const details: RefusalDetails = { ...given };
  const measure = isRefusalKey(key) ? (refusalShapes[key] as RefusalShape).measure : undefined;
  if (measure) details.measure = measure;
  if (need !== undefined) details.need = microText(need);
  if (have !== undefined) details.have = microText(have);
  const error = new BizError(key, { details });
  error.refs = refs;
  return error;
}

export const unauthorized = (key: ErrorKey = 'Unauthorized') => new BizError(key, { status: Status.Unauthorized });
export const forbidden = (key: ErrorKey = 'Forbidden', additional?: string) =>
  new BizError(key, { status: Status.Forbidden, additional });

/**
 * Unique indexes whose violation is a user error, with the catalogue key to answer. A race that slips
 * past a service's own duplicate check still gets the right message instead of a 500.
 */
export const UNIQUE_VIOLATION_KEYS: Record<string, ErrorKey> = {
  // The directory of sign-in names and phones (db/schema/auth.ts), written by the trigger on admin.
  login_name_pkey: 'AdminExist',
  login_phone_pkey: 'PhoneIsRegistered',
  role_key_uq: 'RoleKeyRepeat',
  menu_name_uq: 'NameRepeat',
  printer_sn_uq: 'PrinterSnRepeat',
  verify_rule_bill_type_uq: 'BillVerifyRuleRepeat',
  // Basic records (modules/basic)
  unit_name_uq: 'NameRepeat',
  brand_name_uq: 'NameRepeat',
  category_name_uq: 'NameRepeat',
  district_name_uq: 'NameRepeat',
  partner_code_uq: 'CodeRepeat',
  partner_name_uq: 'NameRepeat',
  warehouse_code_uq: 'CodeRepeat',
  warehouse_name_uq: 'NameRepeat',
  location_name_uq: 'NameRepeat',
  attribute_name_uq: 'NameRepeat',
  fee_type_name_uq: 'NameRepeat',
  pay_type_name_uq: 'NameRepeat',
  material_code_uq: 'CodeRepeat',
  material_name_spec_uq: 'SpecRepeat',
  material_unit_uq: 'UnitRepeat',
  material_unit_barcode_uq: 'BarCodeRepeat',
  bom_version_uq: 'MaterialBomVersionRepeat',
  // Bill engine (server/src/bills)
  bill_code_uq: 'BillCodeRepeat',
};

/** The database error behind a (possibly wrapped) driver error. */
export function databaseErrorOf(error: unknown): { code?: string; constraint?: string } | undefined {
  let current = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current;
    current = current.cause as typeof current;
  }
  return undefined;
}

/**
 * What the log may keep of an unexpected error. A failed query's error (Drizzle's DrizzleQueryError)
 * carries the statement and its parameters — the user's values, passwords and phone numbers included —
 * in its message, its stack and `params`; the log gets the statement, the database's error (message,
 * SQLSTATE, constraint) and the call stack, never the parameters or the driver's `detail` (which repeats
 * values: `Key (name)=(…) already exists`). Other errors are logged as they are.
 */
export function loggableError(error: unknown): unknown {
  const failed = error as { query?: unknown; params?: unknown; cause?: unknown; stack?: string };
  if (!(error instanceof Error) || typeof failed.query !== 'string' || !('params' in failed)) return error;
  const cause = failed.cause as { message?: string; code?: string; constraint?: string; table?: string; column?: string } | undefined;
  const frames = (failed.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  return {
    type: error.constructor.name,
    statement: failed.query,
    error: cause ? { message: cause.message, code: cause.code, constraint: cause.constraint, table: cause.table, column: cause.column } : undefined,
    stack: frames.join('\n'),
  };
}
