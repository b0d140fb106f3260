import { billApiPath, billMenuName, meets, type BillArea, type BillTypeDecl } from './registry.ts';
import type { ProgressKind } from './status.ts';
import { INVOICE_BILLS } from './invoices.ts';
import { MONEY_BILLS } from './money.ts';
import { SALARY_BILLS } from './salary.ts';
import { PEOPLE_BILLS } from './people.ts';
import { OFFICE_BILLS } from './office.ts';
import { PRODUCTION_BILLS } from './production.ts';
import { QUALITY_BILLS } from './quality.ts';
import { OUTSOURCING_BILLS } from './outsourcing.ts';
import { SUPPLY_CHAIN_BILLS } from './supply-chain.ts';

/**
 * Every declared bill type. Production, outsourcing, finance, quality and people bills join this list
 * as their declarations are written; nothing else needs to learn about them.
 */
export const BILL_TYPES: readonly BillTypeDecl[] = [...SUPPLY_CHAIN_BILLS, ...PRODUCTION_BILLS, ...OUTSOURCING_BILLS, ...QUALITY_BILLS, ...MONEY_BILLS, ...SALARY_BILLS, ...INVOICE_BILLS, ...PEOPLE_BILLS, ...OFFICE_BILLS];

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

/**
 * Whether a line of a `sourceType` bill counts for its progress `kind`: it is one of the lines the downstream
 * types driving that kind take (their `fromLines`) — a production order's product lines count for its
 * in-stock progress, its material lines for its picking. Without such a condition every line counts.
 */
export function lineCountsFor(sourceType: string, kind: ProgressKind, line: Record<string, unknown>): boolean {
  const drivers = downstreamTypes(sourceType).flatMap((d) => d.sources.filter((s) => s.type === sourceType && s.drives === kind));
  return !drivers.length || drivers.some((s) => meets(s.fromLines, line));
}

/**
 * Progress that rolls up through intermediate bills: what a `by` line does for a line of the last of `via`
 * counts, as `kind`, on the `source` line the chain of `via` bills came from — an out-stock made from a
 * shipping notice counts on the sale order the notice came from. Each link of the chain declares it
 * (`SourceDecl.passes`), so a new chain (purchase order → arrival notice → in-stock) rolls up as soon as its
 * intermediate type declares what it passes on.
 */
export interface ProgressRollup {
  source: string;
  /** The intermediate types, from the one made from `source` to the one `by` is made from. */
  via: string[];
  by: string;
  kind: ProgressKind;
}

/** The roll-ups onto bills of `sourceType` (see `ProgressRollup`). */
export function progressRollups(sourceType: string, seen: readonly string[] = []): ProgressRollup[] {
  if (seen.includes(sourceType)) return [];
  return BILL_TYPES.flatMap((via) =>
    (via.sources.find((s) => s.type === sourceType)?.passes ?? []).flatMap((kind) => [
      // What is done on the intermediate's lines directly…
      ...downstreamTypes(via.type)
        .filter((by) => by.sources.some((s) => s.type === via.type && s.drives === kind))
        .map((by) => ({ source: sourceType, via: [via.type], by: by.type, kind })),
      // …and what rolls up onto them from further down, if they pass it on in turn.
      ...progressRollups(via.type, [...seen, sourceType])
        .filter((r) => r.kind === kind)
        .map((r) => ({ source: sourceType, via: [via.type, ...r.via], by: r.by, kind })),
    ]),
  );
}

/** Whether bills of `type` pass progress on to their sources (the intermediate of some roll-up). */
export function passesProgressOn(type: string): boolean {
  return billType(type)?.sources.some((s) => s.passes?.length) ?? false;
}
