import { ownBillCodePrefixes, sharedBillCodePrefix, undeclaredBillTypes } from '@p8/contract/bills/code-prefixes';
import { BizError } from '../core/errors.ts';

/**
 * The bill-code prefixes a settings save sends, as they are stored: declared types only (`BadRequest`
 * naming another), no prefix two types would share (`BillCodePrefixRepeat`), and only those that differ
 * from the declaration's (so a later change of a declared default reaches tenants that never set theirs).
 */
export function checkedBillCodePrefixes(sent: Record<string, string>): Record<string, string> {
  const undeclared = undeclaredBillTypes(sent);
  if (undeclared.length) throw new BizError('BadRequest', { additional: `billCodePrefixes.${undeclared[0]}` });
  const shared = sharedBillCodePrefix(sent);
  if (shared) throw new BizError('BillCodePrefixRepeat', { additional: shared });
  return ownBillCodePrefixes(sent);
}
