import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/db/connection.ts';
import { REFERENCE_TABLES } from '../src/db/distribution.ts';
import { startRecording, stopRecording } from '../src/db/statement-recorder.ts';
import { adminCaller } from './basic-fixtures.ts';
import { auditOneOfEachKind, createBillRecords, financeVerifyEmpty, ok, verifyEmpty } from './bill-fixtures.ts';
import { call, seedStaff, seedTenant, startTestApp, TEST_DB, uniquePhone, type TestContext } from './harness.ts';
import { mallApi } from './mall-fixtures.ts';
import { tenantProblems } from './tenant-statements.ts';

/**
 * Statements that touch tenant tables without naming one tenant, each with why that is right. Everything
 * else the server sends must name its tenant (tenant-statements.ts), so that a database distributed by
 * tenant_id routes it to one node (docs/operations.md, "Distributing by tenant").
 */
const PLATFORM_STATEMENTS: Array<{ pattern: RegExp; reason: string }> = [
  { pattern: /from "session" .*where "session"\."token_hash" = \$1 limit/, reason: 'a bearer token issued before tokens named their tenant, looked up by its hash alone until it expires (core/access-cache.ts)' },
  {
    pattern: /^select .* from "tenant" left join "admin" on \("admin"\."tenant_id" = "tenant"\."id" and "admin"\."id" = "tenant"\."initial_admin_id"\)/,
    reason: 'the platform administrator\'s list of tenants, each with its initial administrator (modules/platform): every tenant by design',
  },
  {
    pattern: /^\s*update "session" set last_seen_at = seen\.at\s+from \(values /,
    reason: 'the sessions\' last use, written for up to 500 sessions of any tenants in one statement every 5 s per process (core/access-cache.ts): one multi-node write instead of one per tenant',
  },
];

describe(`every statement names its tenant (${TEST_DB})`, () => {
  let ctx: TestContext;
  let tenantTables: Set<string>;
  beforeAll(async () => {
    ctx = await startTestApp();
    const tables = await rows<{ table_name: string }>(
      ctx.database,
      sql`select distinct c.relname as table_name from pg_class c join pg_attribute a on a.attrelid = c.oid
           where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attname = 'tenant_id' and not a.attisdropped`,
    );
    tenantTables = new Set(tables.map((t) => t.table_name).filter((name) => !(name in REFERENCE_TABLES)));
  });
  afterAll(() => ctx?.close());

  it('reads the statements a tenant\'s day sends: sign-in, records, bills of each kind, verifies, mall, service chat, every list', async () => {
    const t = await seedTenant(ctx.database, 'Stmt');
    await seedStaff(ctx.database, t);
    startRecording();
    let statements: string[];
    try {
      const api = await adminCaller(ctx, t);
      await ok(api.get('/api/admin/current/detail'));
      const records = await createBillRecords(api);
      expect((await auditOneOfEachKind(api, records)).length).toBeGreaterThan(4);
      await verifyEmpty(api);
      await financeVerifyEmpty(api);

      const mall = mallApi(ctx, api.token);
      const product = await mall.product(await mall.category());
      await mall.order(await mall.customer(), [{ skuId: product.skus[0].id, quantity: 1 }]);

      const order = await ok(call<{ id: number }>(ctx.app, 'POST', '/api/admin/service/proxyOrder', {
        token: api.token,
        body: { serviceName: '空调清洗', customerName: '张三', customerPhone: uniquePhone(), address: '上海市浦东新区世纪大道100号', amount: 120 },
      }));
      await ok(call(ctx.app, 'POST', '/api/admin/service/message', { token: api.token, body: { orderId: order.id, content: '几点到？' } }));

      // Every signed-in list and screen without parameters, as the tenant's administrator.
      for (const route of ctx.routes) {
        if (route.method !== 'GET' || route.public || route.url.includes(':') || route.url === '/api/ws') continue;
        await call(ctx.app, 'GET', route.url, { token: api.token });
      }
      await ok(call(ctx.app, 'POST', '/api/auth/logout', { token: api.token }));
    } finally {
      statements = stopRecording();
    }

    expect(statements.length).toBeGreaterThan(300);
    const found = statements.flatMap((text) => {
      const problems = tenantProblems(text, tenantTables);
      if (!problems.length || PLATFORM_STATEMENTS.some((allowed) => allowed.pattern.test(text))) return [];
      return [`${problems.join('; ')}\n    ${text.replace(/\s+/g, ' ')}`];
    });
    expect(found).toEqual([]);
  });

  it('reads SQL as meant: a tenant table without its tenant is found, with it is not', () => {
    const tables = new Set(['bill', 'bill_line', 'stock_ledger', 'material', 'session']);
    expect(tenantProblems('select * from bill where id = $1', tables)).toEqual(['bill without a tenant_id condition', 'no tenant_id compared with a value']);
    expect(tenantProblems('select * from "bill" where "bill"."tenant_id" = $1 and "bill"."id" = $2', tables)).toEqual([]);
    expect(tenantProblems('select * from bill b join bill_line l on l.bill_id = b.id where b.tenant_id = $1', tables)).toEqual(['bill_line l without a tenant_id condition']);
    expect(tenantProblems('select * from bill b join bill_line l on l.tenant_id = b.tenant_id and l.bill_id = b.id where b.tenant_id = $1', tables)).toEqual([]);
    expect(tenantProblems('insert into "bill" ("id", "code") values ($1, $2)', tables)).toEqual(['insert into bill without tenant_id']);
    expect(tenantProblems('insert into "bill" ("tenant_id", "id") values ($1, $2) on conflict do nothing', tables)).toEqual([]);
    expect(tenantProblems('with x as (select material_id from stock_ledger where tenant_id = $1) select * from x join material m on m.tenant_id = $2 and m.id = x.material_id', tables)).toEqual([]);
    expect(tenantProblems('select (select sum(q) from stock_ledger where tenant_id = $1), (select count(*) from material)', tables)).toEqual(['material without a tenant_id condition']);
    expect(tenantProblems('update "session" set last_seen_at = seen.at from (values ($1, $2)) as seen(tenant_id, id) where "session"."tenant_id" = seen.tenant_id', tables)).toEqual(['no tenant_id compared with a value']);
  });
});
