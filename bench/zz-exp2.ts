import { sql } from 'drizzle-orm';
import { migrateDatabase, openDatabase, rows } from '../server/src/db/connection.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
const variant = process.argv[2] ?? 'as-is';
const database = await openDatabase({});
await migrateDatabase(database);
const { tenantId } = await database.withSystem((tx) => createTenant(tx, { tenantName: 'x', adminName: 'xadmin1', password: 'Bench123' }));
if (variant === 'nofk') await database.db.execute(sql`alter table material_unit drop constraint material_unit_material_fk`);
if (variant === 'nounitfk') await database.db.execute(sql`alter table material_unit drop constraint material_unit_unit_fk`);
if (variant === 'norls') await database.db.execute(sql`alter table material no force row level security`);
await database.db.execute(sql`insert into unit (tenant_id, name) select ${tenantId}, 'u' || g from generate_series(1,5) g`);
const units = (await rows<{ id: number }>(database, sql`select id from unit`)).map((r) => Number(r.id));
const run = async (tx: any) => {
  for (let chunk = 0; chunk < 20; chunk++) {
    const t0 = performance.now();
    const r = await rows<{ id: number }>(tx, sql`insert into material (tenant_id, code, name) select ${tenantId}, 'C' || ${chunk} || '-' || g, 'N' || ${chunk} || '-' || g from generate_series(1,500) g returning id`);
    const t1 = performance.now();
    const ids = r.map((x) => Number(x.id));
    await tx.execute(sql`insert into material_unit (tenant_id, material_id, unit_id, is_main) select ${tenantId}, x, ${units[0]}, true from unnest(${'{' + ids.join(',') + '}'}::bigint[]) x`);
    if (chunk % 4 === 0 || chunk === 19) console.log(variant, chunk, (t1 - t0).toFixed(0), (performance.now() - t1).toFixed(0));
  }
};
if (variant === 'owner') await database.withSystem(run); else await database.withTenant(tenantId, run);
