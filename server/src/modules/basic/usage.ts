import { and, eq, sql } from 'drizzle-orm';
import { heldBy, type RecordUsage, type UsageChecker } from '../../core/record-usage.ts';
import { bom, bomLine, declaredRecordLineTable, declaredRecordTable, location, material, materialUnit, partner, partnerAddress, warehouse } from '../../db/schema/index.ts';
import { registerDeclaredRecordUsage, type DeclaredRecordLineTable, type DeclaredRecordTable } from '../../core/declared-records.ts';

/**
 * Where basic records refer to each other, registered with the app's usage registry like any later
 * module's references (a bill naming a supplier registers its own checker from its own module).
 */

/** Materials keep custom attribute values keyed by the attribute id. */
const attributeInMaterials: UsageChecker = async (tx, tenantId, ids) => {
  const keys = sql`array[${sql.join(ids.map((id) => sql`${String(id)}`), sql`, `)}]::text[]`;
  const [used] = await tx
    .select({ attrs: material.customAttributes })
    .from(material)
    .where(and(eq(material.tenantId, tenantId), sql`jsonb_exists_any(${material.customAttributes}, ${keys})`))
    .limit(1);
  const id = used && ids.find((i) => String(i) in (used.attrs ?? {}));
  return id === undefined ? undefined : { id };
};

export function registerBasicUsage(usage: RecordUsage) {
  registerDeclaredRecordUsage(
    usage,
    (kind) => declaredRecordTable(kind) as unknown as DeclaredRecordTable,
    (kind) => declaredRecordLineTable(kind) as unknown as DeclaredRecordLineTable,
  );
  usage.register('brand', 'basic: materials', heldBy(material, material.brandId));
  usage.register('category', 'basic: materials', heldBy(material, material.categoryId));
  usage.register('unit', 'basic: material units', heldBy(materialUnit, materialUnit.unitId));
  usage.register('unit', 'basic: BOM lines', heldBy(bomLine, bomLine.unitId));
  usage.register('attribute', 'basic: materials', attributeInMaterials);
  usage.register('material', 'basic: BOMs', heldBy(bom, bom.materialId));
  usage.register('material', 'basic: BOM lines', heldBy(bomLine, bomLine.materialId));
  usage.register('routing', 'basic: BOMs', heldBy(bom, bom.routingId));
  // A warehouse with storage locations is in use: its locations go first.
  usage.register('stock', 'basic: locations', heldBy(location, location.warehouseId));
  // A customer whose consignment warehouse (entrusted machining) names it.
  usage.register('customer', 'basic: consignment warehouses', heldBy(warehouse, warehouse.customerId));
  usage.register('district', 'basic: partner addresses', heldBy(partnerAddress, partnerAddress.districtId));
  // A supplier's or customer's currency (docs/cross-border.md).
  usage.register('currency', 'basic: partners', heldBy(partner, partner.currencyId));
}
