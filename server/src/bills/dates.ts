import type { TenantConfig } from '@p8/contract/tenant-config';
import { BizError } from '../core/errors.ts';
import { localDay } from './stock-rules.ts';

/**
 * A bill's date lies at most the tenant's `billDateMaxDaysAhead` days after today (the server's calendar,
 * as push down's default date). Stock is valued in the order bills are audited, whatever their dates, so a
 * bill dated months ahead would be valued now and listed then. Checked on every save (create, edit, import,
 * push down, merge) and again at audit (a draft saved under a looser setting), for every bill type.
 */
export function assertBillDate(billDate: string, config: Pick<TenantConfig, 'billDateMaxDaysAhead'>, today = localDay()): void {
  const latest = addDays(today, config.billDateMaxDaysAhead);
  if (billDate.slice(0, 10) > latest) throw new BizError('BillDateTooFarAhead', { additional: latest });
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
