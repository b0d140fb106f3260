import { randomBytes } from 'node:crypto';
import type { Database } from '../server/src/db/connection.ts';
import { brand, category, unit } from '../server/src/db/schema/index.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';

/** A tenant with what a material import refers to: units, brands and a three-level category tree. */
export interface MaterialFixture {
  tenantId: number;
  adminId: number;
  adminName: string;
  unitIds: number[];
  unitNames: string[];
  brandIds: number[];
  brandNames: string[];
  categoryIds: number[];
  categoryPaths: string[];
}

export const BENCH_PASSWORD = 'Bench123';

/** Creates the tenant (through the tenant service) and its units (5), brands (20) and 60 leaf categories. */
export async function seedMaterialTenant(database: Database, label: string): Promise<MaterialFixture> {
  const adminName = `bench${label}${randomBytes(3).toString('hex')}`;
  const created = await database.withSystem((tx) => createTenant(tx, { tenantName: `Bench ${label}`, adminName, password: BENCH_PASSWORD }));
  const { tenantId } = created;
  return database.withTenant(tenantId, async (tx) => {
    const unitNames = ['个', '箱', 'kg', '米', '套'];
    const units = await tx.insert(unit).values(unitNames.map((name) => ({ tenantId, name }))).returning({ id: unit.id });
    const brandNames = Array.from({ length: 20 }, (_, i) => `Brand ${i + 1}`);
    const brands = await tx.insert(brand).values(brandNames.map((name) => ({ tenantId, name }))).returning({ id: brand.id });
    const categoryIds: number[] = [];
    const categoryPaths: string[] = [];
    for (let a = 1; a <= 5; a++) {
      const [l1] = await tx.insert(category).values({ tenantId, name: `Cat ${a}`, level: 1 }).returning({ id: category.id });
      for (let b = 1; b <= 4; b++) {
        const [l2] = await tx.insert(category).values({ tenantId, name: `Sub ${a}.${b}`, parentId: l1.id, level: 2 }).returning({ id: category.id });
        for (let c = 1; c <= 3; c++) {
          const [l3] = await tx.insert(category).values({ tenantId, name: `Leaf ${a}.${b}.${c}`, parentId: l2.id, level: 3 }).returning({ id: category.id });
          categoryIds.push(l3.id);
          categoryPaths.push(`Cat ${a}/Sub ${a}.${b}/Leaf ${a}.${b}.${c}`);
        }
      }
    }
    return { tenantId, adminId: created.adminId, adminName, unitIds: units.map((u) => u.id), unitNames, brandIds: brands.map((b) => b.id), brandNames, categoryIds, categoryPaths };
  });
}

/** Row i of a material file: the columns a real catalogue import fills. */
export function materialRow(f: MaterialFixture, i: number, prefix: string) {
  return {
    code: `${prefix}${String(i).padStart(6, '0')}`,
    name: `Material ${i % 2500}`,
    specification: `${prefix}-S-${i}`,
    categoryIndex: i % f.categoryIds.length,
    brandIndex: i % f.brandIds.length,
    unitIndex: i % f.unitIds.length,
    barcode: `69${String(i).padStart(11, '0')}${prefix}`,
    tags: i % 3 === 0 ? ['sale', 'purchase'] : ['production'],
    batchNumber: i % 4 === 0,
    length: (i % 100) + 0.5,
    weight: (i % 50) / 10,
    purchasePrice: (i % 1000) / 10,
    salePrice: (i % 1000) / 8,
  };
}

export const TAG_ZH: Record<string, string> = { sale: '销售', purchase: '采购', production: '生产' };
