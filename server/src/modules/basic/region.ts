import { and, asc, eq, ilike, inArray, isNull, like, or, sql } from 'drizzle-orm';
import { regionChildrenQuerySchema, regionSearchQuerySchema, type Region, type RegionMatch, type RegionStep } from '@p8/contract/basic';
import type { Tx } from '../../db/connection.ts';
import { region } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/*
 * China's administrative divisions, shared by every tenant (`region`, loaded by db/regions.ts). Tenants
 * read them — one level at a time, or by searching a name — and never write them: the app role may only
 * select from the table. Addresses name a region by its code.
 */

const selection = {
  code: region.code,
  parentCode: region.parentCode,
  level: region.level,
  name: region.name,
  nameEn: region.nameEn,
  // Spelled out: drizzle writes a column of the single selected table without its table name.
  leaf: sql<boolean>`not exists (select 1 from region c where c.parent_code = region.code and c.listed)`,
};

/** The regions directly below `parentCode`, by code; the provinces without it. Placeholder levels are not listed. */
export async function regionChildren(tx: Tx, parentCode: string | undefined): Promise<Region[]> {
  return tx
    .select(selection)
    .from(region)
    .where(and(parentCode === undefined ? isNull(region.parentCode) : eq(region.parentCode, parentCode), eq(region.listed, true)))
    .orderBy(asc(region.code));
}

/**
 * The path from the province down to each region (codes that are not regions are left out). A placeholder
 * level an address named before it was collapsed still resolves (广东省 / 深圳市 / 市辖区).
 */
export async function regionPaths(tx: Tx, codes: string[]): Promise<Map<string, RegionStep[]>> {
  const result = new Map<string, RegionStep[]>();
  const wanted = [...new Set(codes)];
  if (!wanted.length) return result;
  // Each region and its ancestors, walking up by parent code (at most four steps).
  const rows = (await tx.execute(sql`
    with recursive up as (
      select code as start, code, parent_code, name, name_en, 0 as depth from ${region} where ${inArray(region.code, wanted)}
      union all
      select up.start, r.code, r.parent_code, r.name, r.name_en, up.depth + 1 from ${region} r join up on r.code = up.parent_code where up.depth < 4
    )
    select start, code, name, name_en from up order by start, depth desc`)) as unknown as { rows: Array<{ start: string; code: string; name: string; name_en: string }> };
  for (const row of rows.rows) {
    const path = result.get(row.start) ?? [];
    path.push({ code: row.code, name: row.name, nameEn: row.name_en });
    result.set(row.start, path);
  }
  return result;
}

/** Refuses codes that are not regions (`RegionNotExist` naming the first). */
export async function assertRegionsExist(tx: Tx, codes: Array<string | null | undefined>): Promise<void> {
  const wanted = [...new Set(codes.filter((c): c is string => !!c))];
  if (!wanted.length) return;
  const found = new Set((await tx.select({ code: region.code }).from(region).where(inArray(region.code, wanted))).map((r) => r.code));
  const missing = wanted.find((c) => !found.has(c));
  if (missing) throw new BizError('RegionNotExist', { additional: missing });
}

/** `%` and `_` in a user's keyword are matched as themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Listed regions whose Chinese name or English name (in any case) contains the keyword, or whose code
 * starts with it (for digits), higher levels first, each with its path. Reads the 45,000 names without an index (≈ 10 ms): trigram indexes do not
 * split Chinese text into trigrams in every locale.
 */
export async function searchRegions(tx: Tx, keyword: string, limit: number): Promise<RegionMatch[]> {
  const pattern = escapeLike(keyword);
  const byCode = /^\d+$/.test(keyword) ? like(region.code, `${pattern}%`) : undefined;
  const rows = await tx
    .select(selection)
    .from(region)
    .where(and(or(like(region.name, `%${pattern}%`), ilike(region.nameEn, `%${pattern}%`), byCode), eq(region.listed, true)))
    .orderBy(asc(region.level), asc(region.code))
    .limit(limit);
  const paths = await regionPaths(tx, rows.map((r) => r.code));
  return rows.map((r) => ({ ...r, path: paths.get(r.code) ?? [{ code: r.code, name: r.name, nameEn: r.nameEn }] }));
}

const URL = '/api/admin/basic/region';
const tags = ['basic: region'];

/** The shared regions: read by the district screen and by the partner screens' address pickers. */
const REGION_READERS = ['basic_district', 'basic_supplier', 'basic_customer'];
export const regionRoutes = [
  route({
    method: 'GET', url: `${URL}/children`, picker: REGION_READERS, tags, summary: 'The regions directly below a region (the provinces without parentCode)', query: regionChildrenQuerySchema,
    handler: ({ tx }: ServiceContext, { query }) => regionChildren(tx, query.parentCode),
  }),
  route({
    method: 'GET', url: `${URL}/search`, picker: REGION_READERS, tags, summary: 'Regions by name (contains) or code (starts with), each with its path', query: regionSearchQuerySchema,
    handler: ({ tx }: ServiceContext, { query }) => searchRegions(tx, query.keyword, query.limit),
  }),
];
