import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { sampleNamedRecords, sampleRecordBody } from './record-samples.ts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/db/connection.ts';
import { REFERENCE_TABLES, TENANT_TABLES_WITHOUT_RLS } from '../src/db/distribution.ts';
import { admin, backgroundJob, department } from '../src/db/schema/index.ts';
import { caller, xlsx } from './basic-fixtures.ts';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { billApiPath, lineKindOf, type BillTypeDecl } from '@p8/contract/bills/registry';
import { starterLabel } from '@p8/contract/print/label';
import { starterTemplate } from '@p8/contract/print/template';
import { allowDirectBills, billPayload, createOtherBillRecords, feedingSource, sourcedLines, feedConsumed, WALKED_TAGS } from './bill-fixtures.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, unique, type TestContext, type TestTenant } from './harness.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
beforeAll(async () => {
  // Cloud uploads configured, so that the cloud-token route answers like every other GET route.
  ctx = await startTestApp({ qiniu: { accessKey: 'test-ak', secretKey: 'test-sk', bucket: 'p8-bucket', domain: 'https://files.example.com', uploadUrl: 'https://upload.example.com' } });
  a = await seedTenant(ctx.database, 'A');
  b = await seedTenant(ctx.database, 'B');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
});
afterAll(() => ctx.close());

/**
 * The GET routes that answer without a sign-in: the API's own documentation, the captcha, the public
 * system config, the balancer's health check, the import templates (the same for every tenant) and uploaded files (public like an
 * <img src>, behind a random name). Every other GET route is walked below, whenever it was added.
 */
const PUBLIC_GET_ROUTES = [
  '/api/base/imgCaptcha',
  '/api/base/system/config',
  // The balancer's health check (503 while the process drains before a stop).
  '/api/base/system/health',
  '/api/base/template/:file',
  '/api/base/file/*',
  '/api/base/file/:tenantId/:month/:name',
  '/api/docs',
  '/api/docs/json',
  '/api/docs/yaml',
  '/api/docs/static/*',
  '/api/docs/static/index.html',
  '/api/docs/static/swagger-initializer.js',
  // The live channel: signed in by its first message (a plain GET is refused with the envelope).
  '/api/ws',
];

/** Every GET route that needs a sign-in, as the app registered it (`:id` and all): collected by the onRoute hook. */
function signedInGetRoutes(): string[] {
  return [...new Set(ctx.routes.filter((r) => r.method === 'GET' && !r.public).map((r) => r.url))];
}

interface OwnRecords {
  /** A's id of the record each route prefix serves (`/api/admin/basic/unit` → a unit of A). */
  ids: Record<string, number>;
  /** Routes with another parameter than `:id`, filled with A's own (an import's job id). */
  filled: Record<string, string>;
  /** Text that only A's records carry: the marker in every name and code, A's tenant, admin and staff names. */
  values: string[];
  marker: string;
}

/** The query a route cannot answer without: A's own column settings of the staff list; a region search (shared data, the same for B). */
const REQUIRED_QUERY: Record<string, string> = {
  '/api/admin/tenant/table/column/type': '?type=system_staff',
  '/api/admin/basic/region/search': `?keyword=${encodeURIComponent('南山')}`,
  // Any material id: B's answer is null whatever A has (A's templates are A's).
  '/api/admin/quality/inspectionTemplate/applicable': '?inspectionKind=Incoming&materialId=1',
};

/** Fills a route's `:id` with A's record of that route (the prefix before `/:id`), and its required query. */
function fillParams(route: string, own: OwnRecords): string {
  if (REQUIRED_QUERY[route]) return route + REQUIRED_QUERY[route];
  if (own.filled[route]) return own.filled[route];
  if (!route.includes('/:id')) return route;
  const prefix = route.slice(0, route.indexOf('/:id'));
  const id = own.ids[prefix];
  expect(id, `an own record of A for ${route}`).toBeDefined();
  return route.replace(':id', String(id));
}

/** One record of every kind a GET route shows, created by A's administrator through the API. */
async function seedOwnRecords(): Promise<OwnRecords> {
  const marker = `own${unique()}`;
  const api = caller(ctx, tokenA, a.adminId);
  await allowDirectBills(api);
  const post = async (url: string, body: unknown): Promise<number> => {
    const res = await call<{ id?: number; ids?: number[] }>(ctx.app, 'POST', url, { token: tokenA, body });
    expect(res.body.status, `${url}: ${JSON.stringify(res.body)}`).toBe(0);
    return res.body.data.id ?? res.body.data.ids![0];
  };
  const staff = await seedStaff(ctx.database, a);
  const columns = { type: 'system_staff', columns: [{ prop: `${marker}prop`, isShow: true, priority: 1 }] };
  expect((await call(ctx.app, 'PUT', '/api/admin/tenant/table/column/type', { token: tokenA, body: columns })).body.status).toBe(0);
  const unit = await api.create('unit', { name: `${marker}-unit` });
  const material = await api.create('material', { code: `${marker}-M1`, name: `${marker}-material`, units: [{ unitId: unit, isMain: true }], tags: WALKED_TAGS });
  const part = await api.create('material', { code: `${marker}-M2`, name: `${marker}-part`, units: [{ unitId: unit, isMain: true }] });
  const stock = await api.create('stock', { code: `${marker}-W`, name: `${marker}-warehouse` });
  const basic = `/api/admin/basic`;
  const ids: Record<string, number> = {
    [`${basic}/unit`]: unit,
    [`${basic}/material`]: material,
    [`${basic}/stock`]: stock,
    [`${basic}/location`]: await api.create('location', { warehouseId: stock, name: `${marker}-location` }),
    [`${basic}/category`]: await api.create('category', { name: `${marker}-category` }),
    [`${basic}/district`]: await api.create('district', { name: `${marker}-district` }),
    [`${basic}/supplier`]: await api.create('supplier', { code: `${marker}-S`, name: `${marker}-supplier` }),
    [`${basic}/customer`]: await api.create('customer', { code: `${marker}-C`, name: `${marker}-customer` }),
    [`${basic}/bom`]: await api.create('bom', { materialId: material, version: `${marker}-V1`, lines: [{ materialId: part, quantity: 2 }] }),
    '/api/admin/security/dept': await post('/api/admin/security/dept', { parentId: a.deptId, name: `${marker}-dept` }),
    '/api/admin/security/role': await post('/api/admin/security/role', { roleKey: `${marker}role`, roleName: `${marker}-role` }),
    '/api/admin/security/admin': staff.adminId,
    '/api/admin/security/menu': (await call<Array<{ id: number }>>(ctx.app, 'GET', '/api/admin/security/menu/tree', { token: tokenA })).body.data[0].id,
    '/api/admin/office/message': await post('/api/admin/office/message', { receiverIds: [staff.adminId], title: `${marker}-title`, content: `${marker}-content` }),
    '/api/admin/system/printer': await post('/api/admin/system/printer', { name: `${marker}-printer`, provider: 'feie', sn: `${marker}SN`, printerKey: 'k3y-SECRET-9f2a', copies: 1 }),
    '/api/admin/system/printTemplate': await post('/api/admin/system/printTemplate', { billType: 'PurchaseOrder', name: `${marker}-template`, layout: starterTemplate(billType('PurchaseOrder')!, 'zh') }),
    // (A joint review on a type no walked bill needs audited as its source: the administrator is not its reviewer.)
    '/api/admin/system/verify': await post('/api/admin/system/verify', { billType: 'SaleQuotation', auditType: 'AnyVerify', sequential: false, reviewerIds: [staff.adminId] }),
  };
  // A record of every declared kind but units (made above for the materials), its fields carrying the marker.
  for (const decl of RECORD_KINDS.filter((d) => !ids[`/api/admin/${d.area}/${d.kind}`])) {
    const named = await sampleNamedRecords(api.create, decl, `${marker}-named-${decl.kind}`);
    ids[`/api/admin/${decl.area}/${decl.kind}`] = await api.create(decl.kind, sampleRecordBody(decl, `${marker}-${decl.kind}`, named));
  }
  // A's administrator in A's attendance group, clocked in at A's clock address (every group's: it names none).
  const people = '/api/admin/people';
  const address = (await call<{ latitude: number; longitude: number }>(ctx.app, 'GET', `${people}/clockAddress/${ids[`${people}/clockAddress`]}`, { token: tokenA })).body.data;
  expect((await call(ctx.app, 'PUT', `${people}/attendanceGroup`, { token: tokenA, body: { id: ids[`${people}/attendanceGroup`], members: [{ staffId: a.adminId }] } })).body.status).toBe(0);
  const clocked = await call(ctx.app, 'POST', `${people}/clock`, { token: tokenA, body: { latitude: address.latitude, longitude: address.longitude } });
  expect(clocked.body.status, JSON.stringify(clocked.body)).toBe(0);
  const thisMonth = new Date().toISOString().slice(0, 7);
  // A bill of every declared type, its remark carrying the marker (stock for the out-stocks first).
  const bill = (type: string, body: Record<string, unknown>) => post(billApiPath(billType(type)!), body);
  const records = { supplier: ids[`${basic}/supplier`], customer: ids[`${basic}/customer`], warehouse: stock, otherWarehouse: await api.create('stock', { code: `${marker}-W2`, name: `${marker}-warehouse2` }), material, product: material, component: part, ...(await createOtherBillRecords(api, marker)) };
  const opening = await bill('OtherInstock', { billDate: '2026-11-24', warehouseId: stock, lines: [{ materialId: material, number: 100 }, { materialId: part, number: 100 }] });
  for (const step of ['submit', 'audit']) expect((await call(ctx.app, 'POST', `${billApiPath(billType('OtherInstock')!)}/${step}`, { token: tokenA, body: { id: opening } })).body.status).toBe(0);
  /**
   * Lines from a source (invoices, production picks): an audited bill of `decl`'s first source type, made here —
   * of the part (the stock check drafted above holds the material), itself from a source where it needs one.
   */
  const sourcedFrom = async (decl: BillTypeDecl, lines: Array<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> => {
    const sourceDecl = billType(decl.sources[0].type)!;
    const sourcePath = billApiPath(sourceDecl);
    const sourceBody = billPayload(sourceDecl, { ...records, material: part }, feedingSource(decl));
    if (sourceDecl.sourceRequired) sourceBody.lines = await sourcedFrom(sourceDecl, sourceBody.lines as Array<Record<string, unknown>>);
    const sourceId = await bill(sourceDecl.type, sourceBody);
    for (const step of ['submit', 'audit']) {
      const res = (await call(ctx.app, 'POST', `${sourcePath}/${step}`, { token: tokenA, body: { id: sourceId } })).body;
      expect(res, JSON.stringify(res)).toMatchObject({ status: 0 });
    }
    const source = (await call<{ lines: Array<{ id: number }> }>(ctx.app, 'GET', `${sourcePath}/${sourceId}`, { token: tokenA })).body.data;
    await feedConsumed(async (url, body) => (await call(ctx.app, 'POST', url, { token: tokenA, body })).body, decl, { ...records, material: part }, source);
    return sourcedLines(decl, lines, { id: sourceId, lines: source.lines }).map((l) => (lineKindOf(decl) === 'material' ? { ...l, materialId: part } : l));
  };
  for (const decl of BILL_TYPES) {
    const body = billPayload(decl, records, { remark: `${marker}-bill` });
    if (decl.sourceRequired) body.lines = await sourcedFrom(decl, body.lines as Array<Record<string, unknown>>);
    ids[billApiPath(decl)] = await bill(decl.type, body);
  }
  // The mall: a category, a product on the shelf, an order placed for A's customer, a lottery, feedback.
  const mall = '/api/admin/mall';
  const mallCategory = await post(`${mall}/category`, { name: `${marker}-mall-category` });
  const product = (await call<{ id: number; skus: Array<{ id: number }> }>(ctx.app, 'POST', `${mall}/product`, {
    token: tokenA,
    body: { categoryId: mallCategory, name: `${marker}-product`, images: ['/p.png'], onShelf: true, skus: [{ specValues: [], price: 9.9, stock: 5, code: `${marker}-sku` }] },
  })).body.data;
  const customer = ids[`${basic}/customer`];
  Object.assign(ids, {
    [`${mall}/category`]: mallCategory,
    [`${mall}/product`]: product.id,
    [`${mall}/order`]: await post(`${mall}/proxyOrder`, { customerId: customer, consignee: `${marker}-consignee`, phone: '13800000000', address: `${marker}-address`, items: [{ skuId: product.skus[0].id, quantity: 1 }] }),
    [`${mall}/lottery`]: await post(`${mall}/lottery`, {
      name: `${marker}-lottery`,
      startAt: '2020-01-01 00:00:00',
      endAt: '2999-01-01 00:00:00',
      prizes: [{ name: `${marker}-prize`, kind: 'goods', probability: 50, stock: 3 }, { name: `${marker}-none`, kind: 'none', probability: 50 }],
    }),
    [`${mall}/feedback`]: await post(`${mall}/feedback`, { customerId: customer, type: 'suggestion', content: `${marker}-feedback` }),
  });
  expect((await call(ctx.app, 'POST', `${mall}/lottery/draw`, { token: tokenA, body: { lotteryId: ids[`${mall}/lottery`], customerId: customer } })).body.status).toBe(0);
  // Finance: fund accounts and a transfer named by the marker (its bills are among the bills above).
  const fin = '/api/admin/finance';
  const cash = await post(`${fin}/account`, { name: `${marker}-cash`, kind: 'cash', openingBalance: 100, openingDate: '2026-11-24' });
  const bank = await post(`${fin}/account`, { name: `${marker}-bank`, kind: 'bank', openingDate: '2026-11-24' });
  Object.assign(ids, {
    [`${fin}/account`]: cash,
    [`${fin}/transfer`]: await post(`${fin}/transfer`, { docDate: '2026-11-24', fromAccountId: cash, toAccountId: bank, amount: 1, remark: `${marker}-transfer` }),
  });
  // An import of A's, whose progress A reads by the job id it chose.
  const jobId = `${marker}-job`;
  const imported = await api.upload(`${basic}/brand/import?jobId=${jobId}`, await xlsx(['*名称'], [[`${marker}-imported`]]));
  expect(imported.body.status, JSON.stringify(imported.body)).toBe(0);
  // A service order dispatched to A's administrator (so "my orders" shows it too), with a chat message.
  const orderId = await post('/api/admin/service/proxyOrder', { serviceName: `${marker}-service`, customerName: `${marker}-customer`, customerPhone: '13900000000', address: `${marker}-address` });
  expect((await call(ctx.app, 'PUT', '/api/admin/service/order/dispatch', { token: tokenA, body: { id: orderId, staffId: a.adminId } })).body.status).toBe(0);
  await post('/api/admin/service/message', { orderId, content: `${marker}-chat` });
  // A's administrator as service staff (after the dispatch: from now on only service staff take orders).
  ids['/api/admin/service/technician'] = await post('/api/admin/service/technician', { adminId: a.adminId, skills: [`${marker}-skill`], areas: [`${marker}-area`] });
  for (const url of ['/api/admin/service/order', '/api/admin/service/myOrder', '/api/admin/service/proxyOrder']) ids[url] = orderId;
  ids['/api/admin/base/swiper'] = await post('/api/admin/base/swiper', { title: `${marker}-swiper`, image: '/a.png' });
  const agreement = await call(ctx.app, 'PUT', '/api/admin/base/agreement', { token: tokenA, body: { kind: 'user', title: `${marker}-agreement`, content: `<p>${marker}-terms</p>` } });
  expect(agreement.body.status, JSON.stringify(agreement.body)).toBe(0);
  // A background job of A's (queued, never run here), named by the marker.
  ids['/api/admin/system/jobs'] = await ctx.database.withTenant(a.tenantId, async (tx) => (await tx.insert(backgroundJob).values({ tenantId: a.tenantId, kind: 'import', subject: `${marker}-job`, createdBy: a.adminId }).returning({ id: backgroundJob.id }))[0].id);
  // A label template of A's, named by the marker: B's list of the kind shows only the starter.
  await post('/api/admin/system/printTemplate/label', { kind: 'material', name: `${marker}-label`, layout: starterLabel('material') });
  // A box of A's on each inspection that packs, its code carrying the marker.
  for (const decl of BILL_TYPES.filter((d) => d.packs)) await post(`${billApiPath(decl)}/box`, { billId: ids[billApiPath(decl)], lineNo: 1, quantity: 1, code: `${marker}-box-${decl.route}` });
  const filled = {
    '/api/admin/system/printTemplate/label': '/api/admin/system/printTemplate/label?kind=material',
    // An inspection's boxes: A's own inspection of each type that packs.
    ...Object.fromEntries(BILL_TYPES.filter((d) => d.packs).map((d) => [`${billApiPath(d)}/box`, `${billApiPath(d)}/box?billId=${ids[billApiPath(d)]}`])),
    '/api/admin/import/progress/:jobId': `/api/admin/import/progress/${jobId}`,
    '/api/admin/service/message': `/api/admin/service/message?orderId=${orderId}`,
    '/api/admin/base/time/available': '/api/admin/base/time/available?date=2030-01-07',
    ...Object.fromEntries(
      (['receivable', 'payable'] as const).flatMap((side) => {
        const partnerId = side === 'receivable' ? customer : records.supplier;
        return ['ledger', 'openBills'].map((kind) => [`${fin}/${side}/${kind}`, `${fin}/${side}/${kind}?partnerId=${partnerId}`]);
      }),
    ),
    // A selection's bills to print: A's own bill of each type that prints.
    ...Object.fromEntries(BILL_TYPES.filter((d) => d.actions.includes('print')).map((d) => [`${billApiPath(d)}/print/bills`, `${billApiPath(d)}/print/bills?ids=${ids[billApiPath(d)]}`])),
    '/api/admin/finance/prepaid/ledger': `${fin}/prepaid/ledger?partnerId=${records.supplier}`,
    // A month (a key every tenant has, not a record): A's answer is A's, B's is B's own (never run: nothing).
    '/api/admin/production/cost/:period': '/api/admin/production/cost/2026-09',
    // A month too: A's punches and report are A's; B's member-less month is its own.
    '/api/admin/people/clock': `/api/admin/people/clock?month=${thisMonth}`,
    '/api/admin/people/report': `/api/admin/people/report?month=${thisMonth}`,
    '/api/admin/people/report/days': `/api/admin/people/report/days?month=${thisMonth}&staffId=${a.adminId}`,
    '/api/admin/stock/batches/suggest': `/api/admin/stock/batches/suggest?materialId=${material}&warehouseId=${stock}&quantity=1`,
  };
  return { ids, filled, marker, values: [marker, a.tenantName, a.name, a.phone, staff.name] };
}

/**
 * Every tenant table of the schema under RLS (those carrying tenant_id, plus tenant itself), without the
 * shared tables and the sessions read before a tenant transaction exists (db/distribution.ts).
 */
async function tenantTables(): Promise<string[]> {
  const result = await rows<{ table_name: string }>(
    ctx.database,
    sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id' order by 1`,
  );
  const shared = new Set([...Object.keys(REFERENCE_TABLES), ...Object.keys(TENANT_TABLES_WITHOUT_RLS)]);
  return ['tenant', ...result.map((r) => r.table_name).filter((name) => !shared.has(name))];
}

describe(`tenant isolation by row-level security (${TEST_DB})`, () => {
  it('runs requests as a role that is neither superuser, BYPASSRLS nor table owner', async () => {
    const [who] = await ctx.database.withTenant(a.tenantId, (tx) =>
      rows<{ usr: string; superuser: boolean; bypass: boolean; owns: number }>(
        tx,
        sql`select current_user as usr, r.rolsuper as superuser, r.rolbypassrls as bypass,
              (select count(*)::int from pg_tables t where t.schemaname = 'public' and t.tableowner = current_user) as owns
            from pg_roles r where r.rolname = current_user`,
      ),
    );
    expect(who).toEqual({ usr: 'p8_app', superuser: false, bypass: false, owns: 0 });
  });

  it('forces RLS with a policy on every tenant table', async () => {
    const tables = await tenantTables();
    const state = await rows<{ relname: string; forced: boolean; enabled: boolean; policies: number }>(
      ctx.database,
      sql`select c.relname, c.relforcerowsecurity as forced, c.relrowsecurity as enabled,
            (select count(*)::int from pg_policies p where p.tablename = c.relname) as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'`,
    );
    for (const table of tables) {
      expect(state.find((s) => s.relname === table), table).toMatchObject({ forced: true, enabled: true });
      expect(state.find((s) => s.relname === table)!.policies, table).toBeGreaterThan(0);
    }
  });

  it('returns no foreign rows to a raw select without a tenant filter, on every tenant table', async () => {
    for (const table of await tenantTables()) {
      const column = table === 'tenant' ? 'id' : 'tenant_id';
      const seen = await ctx.database.withTenant(a.tenantId, (tx) =>
        rows<{ tid: string | number }>(tx, sql.raw(`select distinct ${column} as tid from "${table}"`)),
      );
      expect(seen.map((r) => Number(r.tid)).filter((tid) => tid !== a.tenantId), table).toEqual([]);
    }
  });

  it('sees nothing at all when no tenant is set', async () => {
    const seen = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', 'p8_app', true)`);
      return rows<{ n: number }>(tx, sql`select count(*)::int as n from admin`);
    });
    expect(seen[0].n).toBe(0);
  });

  it("cannot insert, update or delete another tenant's rows", async () => {
    await expect(
      ctx.database.withTenant(a.tenantId, (tx) => tx.insert(department).values({ tenantId: b.tenantId, name: 'smuggled' })),
    ).rejects.toThrow();
    const updated = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.update(admin).set({ realName: 'hijacked' }).where(sql`${admin.tenantId} = ${b.tenantId}`).returning({ id: admin.id }),
    );
    expect(updated).toEqual([]);
    const deleted = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.delete(department).where(sql`${department.tenantId} = ${b.tenantId}`).returning({ id: department.id }),
    );
    expect(deleted).toEqual([]);
    await expect(
      ctx.database.withTenant(a.tenantId, (tx) => tx.update(admin).set({ tenantId: b.tenantId }).where(sql`${admin.id} = ${a.adminId}`)),
    ).rejects.toThrow();
    const bAdmins = await ctx.database.withTenant(b.tenantId, (tx) => rows<{ real_name: string }>(tx, sql`select real_name from admin`));
    expect(bAdmins.map((r) => r.real_name)).not.toContain('hijacked');
  });

  it("never shows tenant A's own records to tenant B through any GET route, nested ones included", async () => {
    const own = await seedOwnRecords();
    const walked = signedInGetRoutes();
    // The only GET routes not walked are the known public ones; the walk includes the nested routes.
    expect([...new Set(ctx.routes.filter((r) => r.method === 'GET' && r.public).map((r) => r.url))].sort()).toEqual([...PUBLIC_GET_ROUTES].sort());
    expect(walked).toEqual(expect.arrayContaining(['/api/admin/basic/material/:id', '/api/admin/basic/category/tree', '/api/admin/basic/unit/picker', '/api/admin/basic/customer/statistics', '/api/admin/security/role/:id/permission']));
    for (const route of walked) {
      const url = fillParams(route, own);
      // The URL reaches A's data: A's own call succeeds.
      const mine = await call(ctx.app, 'GET', url, { token: tokenA });
      expect(mine.body.status, `${url} as A: ${JSON.stringify(mine.body)}`).toBe(0);
      // B sees none of it: a route naming one of A's records refuses, and no answer carries A's values.
      const theirs = await call(ctx.app, 'GET', url, { token: tokenB });
      // B's answer on a URL naming A's record or job: refused, or nothing at all.
      if (route.includes('/:')) expect(theirs.body.status !== 0 || theirs.body.data === null, `${url} as B: ${JSON.stringify(theirs.body)}`).toBe(true);
      const text = JSON.stringify(theirs.body);
      for (const value of own.values) expect(text, `${url} as B`).not.toContain(value);
    }
    // The records listed as A's are A's indeed: the lists show them to A.
    const aList = await call(ctx.app, 'GET', '/api/admin/basic/material', { token: tokenA });
    expect(JSON.stringify(aList.body)).toContain(own.marker);
    // Every bill type adds its seven GET routes to the walk: a minute on a busy two-core machine.
  }, 120_000);

  it("cannot act on tenant A's rows through the signed-in write routes", async () => {
    // Personal data, password, common menus and session removal all act on the caller only: B's calls leave A untouched.
    await call(ctx.app, 'PUT', '/api/admin/current/info', { token: tokenB, body: { realName: 'B was here' } });
    await call(ctx.app, 'POST', '/api/admin/auth/removeOther', { token: tokenB });
    const meA = await call<{ realName: string }>(ctx.app, 'GET', '/api/admin/current/detail', { token: tokenA });
    expect(meA.body.status).toBe(0);
    expect(meA.body.data.realName).not.toBe('B was here');
  });
});
