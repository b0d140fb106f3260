import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billMenuName, headerFields, lineFields, lineKindOf } from '@p8/contract/bills/registry';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { everyRecordField, recordMenuName } from '@p8/contract/records/registry';

/**
 * Screen codes (menu names, server/src/db/seed/menus.ts) that several modules' routes name when they
 * declare who may read them: a picker route lists the screens whose forms use it (core/route.ts). The bill
 * screens come from the bill-type registry, so a new bill type's screen reaches every picker its form uses.
 */

/** Every bill type's screen: the one bill kit, whose header offers partners, warehouses, staff and departments. */
export const BILL_SCREENS: readonly string[] = BILL_TYPES.map(billMenuName);

/** The bill screens whose lines are materials (the material picker, units, batches, locations). */
export const MATERIAL_BILL_SCREENS: readonly string[] = BILL_TYPES.filter((decl) => lineKindOf(decl) === 'material').map(billMenuName);

/** The bill screens of the finance area (payments, receipts, fees, incomes, salaries…): fund accounts and fee types. */
export const FINANCE_BILL_SCREENS: readonly string[] = BILL_TYPES.filter((decl) => decl.area === 'finance').map(billMenuName);

/** The stock reports, filtered by warehouse and location. */
export const STOCK_REPORT_SCREENS: readonly string[] = ['stock_current', 'stock_ledger', 'stock_summary'];

/** Finance's partner screens: receivables, payables and prepaid / advance balances, each picking a partner. */
export const FINANCE_PARTNER_SCREENS: readonly string[] = ['finance_receivable', 'finance_payable', 'finance_prepaid'];

/**
 * The screens whose forms name records of kind `ref` (a field of kind `record`): the bill screens and the
 * declared record screens (a machine's work team, a team's leader, a routing step's process). They read the kind's picker, so a bill type
 * or record kind naming a process, a department or a colleague reaches its picker the day it is declared.
 */
export const screensNaming = (ref: string): string[] => [
  ...BILL_TYPES.filter((decl) => [...headerFields(decl), ...lineFields(decl)].some((f) => f.kind === 'record' && f.ref === ref)).map(billMenuName),
  ...RECORD_KINDS.filter((decl) => everyRecordField(decl).some((f) => f.kind === 'record' && f.ref === ref)).map(recordMenuName),
];
