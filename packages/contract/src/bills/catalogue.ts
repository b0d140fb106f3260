import { billApiPath, billMenuName, type BillArea, type BillTypeDecl } from './registry.ts';
import { INVOICE_BILLS } from './invoices.ts';
import { MONEY_BILLS } from './money.ts';
import { SALARY_BILLS } from './salary.ts';
import { SUPPLY_CHAIN_BILLS } from './supply-chain.ts';

/**
 * Every declared bill type. Production, outsourcing, finance, quality and people bills join this list
 * as their declarations are written; nothing else needs to learn about them.
 */
export const BILL_TYPES: readonly BillTypeDecl[] = [...SUPPLY_CHAIN_BILLS, ...MONEY_BILLS, ...SALARY_BILLS, ...INVOICE_BILLS];

const byType = new Map(BILL_TYPES.map((decl) => [decl.type, decl]));
const byMenu = new Map(BILL_TYPES.map((decl) => [billMenuName(decl), decl]));

/** The declaration of a bill type, or undefined for a name no declaration has. */
export function billType(type: string): BillTypeDecl | undefined {
  return byType.get(type);
}

/** The declaration behind a menu name / route pair (`purchase_order`). */
export function billTypeByMenu(menuName: string): BillTypeDecl | undefined {
  return byMenu.get(menuName);
}

/** The declaration behind an API path (`/api/admin/purchase/order`). */
export function billTypeByApiPath(path: string): BillTypeDecl | undefined {
  return BILL_TYPES.find((decl) => billApiPath(decl) === path);
}

/** Bill types grouped by area, in menu order (the joint-review screen's bill type picker). */
export function billTypesByArea(): Array<{ area: BillArea; types: BillTypeDecl[] }> {
  const areas: BillArea[] = [];
  for (const decl of BILL_TYPES) if (!areas.includes(decl.area)) areas.push(decl.area);
  return areas.map((area) => ({ area, types: BILL_TYPES.filter((d) => d.area === area) }));
}

/** The bill types a type can be pushed down to (the source's "push down" menu). */
export function downstreamTypes(sourceType: string): BillTypeDecl[] {
  return BILL_TYPES.filter((decl) => decl.sources.some((s) => s.type === sourceType));
}
