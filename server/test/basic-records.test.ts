import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, brand } from '../src/db/schema/index.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, putStock, staffCaller, type Caller } from './basic-fixtures.ts';

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Basic');
  api = await adminCaller(ctx, t);
});
afterAll(() => ctx.close());

const base = (record: string) => `/api/admin/basic/${record}`;

describe(`simple basic records (${TEST_DB})`, () => {
  it.each(['unit', 'brand', 'paytype', 'attribute'])('%s: name unique, CRUD, enable, list with filters and paging', async (record) => {
    const id = await api.create(record, { name: `${record}-A`, sort: 2, remark: 'first' });
    await api.create(record, { name: `${record}-B`, sort: 1 });
    const dup = await api.post(base(record), { name: `${record}-A` });
    expect(dup.body).toMatchObject({ status: 40001, message: 'NameRepeat' });
    const missing = await api.post(base(record), { name: ' ' });
    expect(missing.body).toMatchObject({ status: 40001, message: 'PleaseInputName' });
    const tooLong = await api.post(base(record), { name: 'n'.repeat(101) });
    expect(tooLong.body).toMatchObject({ status: 40001, message: 'NameTooLong', additional: 'name' });

    const list = await api.get<Array<{ name: string }>>(`${base(record)}?name=${record}-&pageSize=1&current=2`);
    expect(list.body.pagination).toEqual({ current: 2, pageSize: 1, total: 2 });
    expect(list.body.data.map((r) => r.name)).toEqual([`${record}-A`]); // sort 1 first, then sort 2

    const renamed = await api.put<{ name: string }>(base(record), { id, name: `${record}-C` });
    expect(renamed.body.data.name).toBe(`${record}-C`);
    expect((await api.put(base(record), { id, name: `${record}-B` })).body.message).toBe('NameRepeat');

    expect((await api.put(`${base(record)}/enable`, { ids: [id], enabled: false })).body.status).toBe(0);
    const disabled = await api.get<Array<{ id: number }>>(`${base(record)}?enabled=false&name=${record}-`);
    expect(disabled.body.data.map((r) => r.id)).toEqual([id]);
    const picker = await api.get<Array<{ id: number }>>(`${base(record)}/picker?keyword=${record}-`);
    expect(picker.body.data.map((r) => r.id)).not.toContain(id);

    expect((await api.del(base(record), { ids: [id] })).body.status).toBe(0);
    expect((await api.get(`${base(record)}/${id}`)).body.status).toBe(40001);
  });

  it('fee types carry their kind, income or expense, and filter by it', async () => {
    await api.create('fee', { name: 'Freight', kind: 'expense' });
    await api.create('fee', { name: 'Rebate', kind: 'income' });
    const bad = await api.post(base('fee'), { name: 'Other', kind: 'gift' });
    expect(bad.body.status).toBe(40001);
    const income = await api.get<Array<{ name: string; kind: string }>>(`${base('fee')}?kind=income`);
    expect(income.body.data).toEqual([expect.objectContaining({ name: 'Rebate', kind: 'income' })]);
  });

  it('attributes keep a list of distinct values', async () => {
    const id = await api.create('attribute', { name: 'Colour', values: ['red', 'blue'] });
    expect((await api.get<{ values: string[] }>(`${base('attribute')}/${id}`)).body.data.values).toEqual(['red', 'blue']);
    expect((await api.put(base('attribute'), { id, values: ['red', 'red'] })).body.status).toBe(40001);
  });

  it('sorts by a declared column and refuses an undeclared one', async () => {
    const asc = await api.get<Array<{ name: string }>>(`${base('brand')}?nameSort=asc&pageSize=200`);
    const names = asc.body.data.map((r) => r.name);
    expect(names).toEqual([...names].sort());
    expect((await api.get(`${base('brand')}?remarkSort=asc`)).body).toMatchObject({ status: 40001, additional: 'remarkSort' });
  });

  it('excludes ids with notInId', async () => {
    const a = await api.create('unit', { name: 'notin-a' });
    const b = await api.create('unit', { name: 'notin-b' });
    const res = await api.get<Array<{ id: number }>>(`${base('unit')}?name=notin-&notInId=${a}`);
    expect(res.body.data.map((r) => r.id)).toEqual([b]);
  });
});

describe(`categories and districts (${TEST_DB})`, () => {
  it('allows at most three levels of categories', async () => {
    const l1 = await api.create('category', { name: 'Metals' });
    const l2 = await api.create('category', { name: 'Steel', parentId: l1 });
    const l3 = await api.create('category', { name: 'Sheet', parentId: l2 });
    const l4 = await api.post(base('category'), { name: 'Thin', parentId: l3 });
    expect(l4.body).toMatchObject({ status: 40001, message: 'CategoryMaxThreeLevels' });
    const tree = await api.get<Array<{ name: string; children?: Array<{ name: string; level: number; children?: Array<{ level: number }> }> }>>(`${base('category')}/tree`);
    const metals = tree.body.data.find((n) => n.name === 'Metals')!;
    expect(metals.children![0]).toMatchObject({ name: 'Steel', level: 2 });
    expect(metals.children![0].children![0].level).toBe(3);
  });

  it('refuses a parent that is the category itself or below it, and a move that would go too deep', async () => {
    const a = await api.create('category', { name: 'Wood' });
    const b = await api.create('category', { name: 'Oak', parentId: a });
    const c = await api.create('category', { name: 'Boards', parentId: b });
    expect((await api.put(base('category'), { id: a, parentId: a })).body.message).toBe('ParentCannotBeSelf');
    expect((await api.put(base('category'), { id: a, parentId: c })).body.message).toBe('ParentCannotBeSelf');
    const other = await api.create('category', { name: 'Plastics' });
    expect((await api.put(base('category'), { id: b, parentId: other })).body.status).toBe(0); // 2 levels under a root: fits
    const deep = await api.create('category', { name: 'PVC', parentId: other });
    expect((await api.put(base('category'), { id: b, parentId: deep })).body.message).toBe('CategoryMaxThreeLevels');
    const moved = await api.get<{ level: number }>(`${base('category')}/${c}`);
    expect(moved.body.data.level).toBe(3);
  });

  it('refuses deleting a category with sub-categories or materials, and same names under one parent', async () => {
    const root = await api.create('category', { name: 'Paper' });
    const child = await api.create('category', { name: 'A4', parentId: root });
    expect((await api.post(base('category'), { name: 'A4', parentId: root })).body.message).toBe('NameRepeat');
    expect((await api.del(base('category'), { ids: [root] })).body.message).toBe('CategoryHasChildrenProhibitDelete');
    const pcs = await api.create('unit', { name: 'sheet' });
    await api.create('material', { code: 'PAPER-1', name: 'Copy paper', categoryId: child, units: [{ unitId: pcs, isMain: true }] });
    expect((await api.del(base('category'), { ids: [child] })).body.message).toBe('CategoryInUseProhibitDelete');
    const empty = await api.create('category', { name: 'Empty', parentId: root });
    expect((await api.del(base('category'), { ids: [empty] })).body.status).toBe(0);
  });

  it('allows at most four levels of districts and refuses deleting one in use', async () => {
    const ids: number[] = [];
    for (const name of ['Guangdong', 'Shenzhen', 'Nanshan', 'Yuehai']) {
      const res = await api.post<{ id: number }>('/api/admin/basic/district', { name, parentId: ids.at(-1) ?? null });
      expect(res.body.status).toBe(0);
      ids.push(res.body.data.id);
    }
    const fifth = await api.post('/api/admin/basic/district', { name: 'Block 5', parentId: ids[3] });
    expect(fifth.body.message).toBe('DistrictMaxFourLevels');
    expect((await api.put('/api/admin/basic/district', { id: ids[0], parentId: ids[2] })).body.message).toBe('ParentCannotBeSelf');
    expect((await api.del('/api/admin/basic/district', { ids: [ids[2]] })).body.message).toBe('DistrictHasChildrenProhibitDelete');
    // Shenzhen's subtree (three levels) fits under a root, not under a second-level district.
    const hubei = await api.post<{ id: number }>('/api/admin/basic/district', { name: 'Hubei' });
    const wuhan = await api.post<{ id: number }>('/api/admin/basic/district', { name: 'Wuhan', parentId: hubei.body.data.id });
    expect((await api.put('/api/admin/basic/district', { id: ids[1], parentId: wuhan.body.data.id })).body.message).toBe('DistrictMaxFourLevels');

    await api.create('customer', { code: 'C-DIST', name: 'District customer', addresses: [{ districtId: ids[3], address: '1 Road' }] });
    expect((await api.del('/api/admin/basic/district', { ids: [ids[3]] })).body.message).toBe('DistrictInUseProhibitDelete');
    const tree = await api.get<Array<{ name: string; children?: unknown[] }>>('/api/admin/basic/district/tree');
    expect(tree.body.data.find((d) => d.name === 'Guangdong')?.children).toHaveLength(1);
  });
});

describe(`warehouses and locations (${TEST_DB})`, () => {
  it('keeps warehouse codes and names unique, and location names unique within a warehouse', async () => {
    const w1 = await api.create('stock', { code: 'W01', name: 'Main store', address: 'Dock 1', managerId: t.adminId });
    const w2 = await api.create('stock', { code: 'W02', name: 'Spare store' });
    expect((await api.post(base('stock'), { code: 'W01', name: 'Other' })).body.message).toBe('CodeRepeat');
    expect((await api.post(base('stock'), { code: 'W03', name: 'Main store' })).body.message).toBe('NameRepeat');
    const detail = await api.get<{ managerName: string; assignment: unknown }>(`${base('stock')}/${w1}`);
    expect(detail.body.data).toMatchObject({ managerName: expect.any(String), assignment: { deptIds: [], adminIds: [] } });

    await api.create('location', { warehouseId: w1, name: 'A-01' });
    expect((await api.post(base('location'), { warehouseId: w1, name: 'A-01' })).body.message).toBe('NameRepeat');
    await api.create('location', { warehouseId: w2, name: 'A-01' });
    expect((await api.post(base('location'), { name: 'A-02' })).body.message).toBe('PleaseSelectWarehouse');
    expect((await api.post(base('location'), { warehouseId: 999999, name: 'A-02' })).body.message).toBe('WarehouseNotExist');
    const ofW1 = await api.get<Array<{ warehouseName: string }>>(`${base('location')}?warehouseId=${w1}`);
    expect(ofW1.body.data).toEqual([expect.objectContaining({ warehouseName: 'Main store' })]);
  });

  it('refuses deleting or disabling a warehouse or location that holds stock', async () => {
    const pcs = await api.create('unit', { name: 'pcs-stock' });
    const m = await api.create('material', { code: 'STK-1', name: 'Stocked', units: [{ unitId: pcs, isMain: true }] });
    const w = await api.create('stock', { code: 'W-STK', name: 'Stocked store' });
    const loc = await api.create('location', { warehouseId: w, name: 'S-1' });
    await putStock(ctx, t.tenantId, { materialId: m, warehouseId: w, locationId: loc, quantity: '5' });

    expect((await api.del(base('location'), { ids: [loc] })).body).toMatchObject({ status: 40001, message: 'LocationExistInventoryProhibitDelete' });
    expect((await api.put(`${base('location')}/enable`, { ids: [loc], enabled: false })).body.message).toBe('LocationExistInventoryProhibitClose');
    expect((await api.del(base('stock'), { ids: [w] })).body.message).toBe('WarehouseExistInventoryProhibitDelete');
    expect((await api.put(`${base('stock')}/enable`, { ids: [w], enabled: false })).body.message).toBe('WarehouseExistInventoryProhibitClose');
    expect((await api.del(base('material'), { ids: [m] })).body.message).toBe('MaterialExistInventoryProhibitDelete');
    expect((await api.put(`${base('material')}/enable`, { ids: [m], enabled: false })).body.message).toBe('MaterialExistInventoryProhibitClose');
    // Nothing changed.
    expect((await api.get<{ enabled: boolean }>(`${base('location')}/${loc}`)).body.data.enabled).toBe(true);
    expect((await api.get<{ enabled: boolean }>(`${base('stock')}/${w}`)).body.data.enabled).toBe(true);
  });

  it('keeps a location that holds stock in its warehouse', async () => {
    const pcs = await api.create('unit', { name: 'pcs-move' });
    const m = await api.create('material', { code: 'MOVE-1', name: 'Moved', units: [{ unitId: pcs, isMain: true }] });
    const from = await api.create('stock', { code: 'W-FROM', name: 'From store' });
    const to = await api.create('stock', { code: 'W-TO', name: 'To store' });
    const held = await api.create('location', { warehouseId: from, name: 'Held' });
    const empty = await api.create('location', { warehouseId: from, name: 'Empty' });
    await putStock(ctx, t.tenantId, { materialId: m, warehouseId: from, locationId: held, quantity: '2' });
    expect((await api.put(base('location'), { id: held, warehouseId: to })).body.message).toBe('LocationExistInventoryProhibitClose');
    expect((await api.get<{ warehouseId: number }>(`${base('location')}/${held}`)).body.data.warehouseId).toBe(from);
    expect((await api.put(base('location'), { id: empty, warehouseId: to })).body.status).toBe(0);
  });

  it('offers pickers enabled warehouses, and enabled locations of enabled warehouses', async () => {
    const w = await api.create('stock', { code: 'W-PICK', name: 'Picker store' });
    const open = await api.create('location', { warehouseId: w, name: 'Open' });
    const closed = await api.create('location', { warehouseId: w, name: 'Closed' });
    await api.put(`${base('location')}/enable`, { ids: [closed], enabled: false });
    const picked = async (record: string, query: string) => (await api.get<Array<{ id: number }>>(`${base(record)}/picker?${query}`)).body.data.map((r) => r.id);
    expect(await picked('location', `warehouseId=${w}`)).toEqual([open]);
    expect(await picked('stock', 'keyword=W-PICK')).toEqual([w]);
    await api.put(`${base('stock')}/enable`, { ids: [w], enabled: false });
    expect(await picked('location', `warehouseId=${w}`)).toEqual([]);
    expect(await picked('stock', 'keyword=W-PICK')).toEqual([]);
  });

  it('refuses deleting a warehouse that still has locations, allows it once they are gone', async () => {
    const w = await api.create('stock', { code: 'W-LOC', name: 'With locations' });
    const loc = await api.create('location', { warehouseId: w, name: 'L-1' });
    expect((await api.del(base('stock'), { ids: [w] })).body.message).toBe('StockInUseProhibitDelete');
    expect((await api.del(base('location'), { ids: [loc] })).body.status).toBe(0);
    expect((await api.del(base('stock'), { ids: [w] })).body.status).toBe(0);
  });
});

describe(`suppliers and customers (${TEST_DB})`, () => {
  it('keeps code and name unique per kind, with contacts, addresses and bank details', async () => {
    const id = await api.create('supplier', {
      code: 'S001',
      name: 'Acme Steel',
      taxNumber: '91440300MA5',
      bankName: 'ICBC',
      bankAccount: '6222',
      invoiceTitle: 'Acme Steel Ltd',
      // Read-only (finance's opening balances): a value sent is not kept.
      openingPayable: 1200.5,
      contacts: [
        { name: 'Li', phone: '13800001111' },
        { name: 'Wang', phone: '13800002222', isDefault: true },
      ],
      addresses: [{ address: 'No. 1 Road' }],
    });
    // The same code and name are free for a customer.
    await api.create('customer', { code: 'S001', name: 'Acme Steel' });
    expect((await api.post(base('supplier'), { code: 'S001', name: 'Other' })).body.message).toBe('CodeRepeat');
    expect((await api.post(base('supplier'), { code: 'S002', name: 'Acme Steel' })).body.message).toBe('NameRepeat');
    expect((await api.post(base('supplier'), { code: 'S003', name: 'Bad phone', phone: 'abc' })).body.message).toBe('PhoneFormatError');

    const detail = await api.get<{ contacts: Array<{ name: string; isDefault: boolean }>; addresses: Array<{ isDefault: boolean }>; openingPayable: number }>(`${base('supplier')}/${id}`);
    expect(detail.body.data.contacts.map((c) => [c.name, c.isDefault])).toEqual([
      ['Li', false],
      ['Wang', true],
    ]);
    expect(detail.body.data.addresses[0].isDefault).toBe(true);
    expect(detail.body.data.openingPayable).toBe(0);
    // The list shows the default contact and the default address.
    const listed = await api.get<Array<{ id: number; contactName: string; address: string }>>(`${base('supplier')}?code=S001`);
    expect(listed.body.data.find((p) => p.id === id)).toMatchObject({ contactName: 'Wang', address: 'No. 1 Road' });

    await api.put(base('supplier'), { id, contacts: [{ name: 'Zhao' }] });
    const after = await api.get<{ contacts: Array<{ name: string }>; addresses: unknown[] }>(`${base('supplier')}/${id}`);
    expect(after.body.data.contacts.map((c) => c.name)).toEqual(['Zhao']);
    expect(after.body.data.addresses).toHaveLength(1); // not sent: kept
    // A supplier is not a customer.
    expect((await api.get(`${base('customer')}/${id}`)).body.message).toBe('CustomerNotExist');
  });

  it('sums the opening balances (of audited opening-balance bills) over the list query', async () => {
    for (const [code, openingAmount] of [['SUM-1', '100.25'], ['SUM-2', '50']]) {
      const customerId = await api.create('customer', { code, name: `Sum ${code}` });
      const saved = await api.post<{ id: number }>('/api/admin/finance/beginning', { billDate: '2026-01-01', beginningType: 'Receivable', customerId, openingAmount, lines: [] });
      for (const step of ['submit', 'audit']) expect((await api.post(`/api/admin/finance/beginning/${step}`, { id: saved.body.data.id })).body.status).toBe(0);
    }
    const stats = await api.get<{ openingReceivable: string; openingPayable: string }>(`${base('customer')}/statistics?code=SUM-`);
    expect(Number(stats.body.data.openingReceivable)).toBeCloseTo(150.25);
    expect(Number(stats.body.data.openingPayable)).toBe(0);
  });

  it('offers enabled partners to pickers by code, name or phone', async () => {
    const on = await api.create('customer', { code: 'PK-1', name: 'Picker Mart', phone: '13900001234' });
    const off = await api.create('customer', { code: 'PK-2', name: 'Picker Closed' });
    await api.put(`${base('customer')}/enable`, { ids: [off], enabled: false });
    const byName = await api.get<Array<{ id: number }>>(`${base('customer')}/picker?keyword=Picker`);
    expect(byName.body.data.map((c) => c.id)).toEqual([on]);
    const byPhone = await api.get<Array<{ id: number }>>(`${base('customer')}/picker?keyword=0001234`);
    expect(byPhone.body.data.map((c) => c.id)).toEqual([on]);
  });
});

describe(`permissions and audit (${TEST_DB})`, () => {
  it('refuses a write without its button code (40300) and changes nothing', async () => {
    const reader = await staffCaller(ctx, t, ['basic_brand_add']);
    const id = await api.create('brand', { name: 'Guarded' });
    for (const [method, url, body] of [
      ['put', base('brand'), { id, name: 'Hacked' }],
      ['del', base('brand'), { ids: [id] }],
      ['put', `${base('brand')}/enable`, { ids: [id], enabled: false }],
      ['post', base('material'), { code: 'X', name: 'X', units: [{ unitId: 1, isMain: true }] }],
      ['put', `${base('supplier')}/assign`, { ids: [id], deptIds: [], adminIds: [] }],
    ] as const) {
      const res = await reader[method](url, body);
      expect(res.httpStatus, url).toBe(403);
      expect(res.body.status).toBe(40300);
    }
    const after = await api.get<{ name: string; enabled: boolean }>(`${base('brand')}/${id}`);
    expect(after.body.data).toMatchObject({ name: 'Guarded', enabled: true });
    // The code it holds works, and lists need only a sign-in.
    expect((await reader.post(base('brand'), { name: 'Allowed' })).body.status).toBe(0);
    expect((await reader.get(base('brand'))).body.status).toBe(0);
  });

  it('records every write in the audit log', async () => {
    const id = await api.create('brand', { name: 'Audited' });
    await api.del(base('brand'), { ids: [id] });
    const entries = await ctx.database.withTenant(t.tenantId, (tx) =>
      tx.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.tenantId, t.tenantId), eq(auditLog.entity, 'brand'), eq(auditLog.entityId, String(id)))),
    );
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'delete']);
  });

  it('audits an update by the fields it changed, and an unchanged save not at all', async () => {
    const id = await api.create('customer', { code: 'AU-1', name: 'Audit Customer', contacts: [{ name: 'Li', phone: '13800000000' }] });
    const updates = () =>
      ctx.database.withTenant(t.tenantId, (tx) =>
        tx.select({ detail: auditLog.detail }).from(auditLog).where(and(eq(auditLog.tenantId, t.tenantId), eq(auditLog.entity, 'customer'), eq(auditLog.action, 'update'), eq(auditLog.entityId, String(id)))),
      );
    // The same values again (contacts are rewritten with new row ids, yet say the same): no entry.
    expect((await api.put(base('customer'), { id, name: 'Audit Customer', remark: '', contacts: [{ name: 'Li', phone: '13800000000' }] })).body.status).toBe(0);
    expect(await updates()).toEqual([]);
    expect((await api.put(base('customer'), { id, name: 'Audit Customer 2', remark: '', contacts: [{ name: 'Li', phone: '13800000000' }] })).body.status).toBe(0);
    const [entry] = await updates();
    expect(entry.detail).toEqual({ name: { from: 'Audit Customer', to: 'Audit Customer 2' } });
  });
});

describe(`tenant isolation (${TEST_DB})`, () => {
  it("never reads, changes or deletes another tenant's record by id", async () => {
    const other = await seedTenant(ctx.database, 'Other');
    const otherApi = await adminCaller(ctx, other);
    const foreignBrand = await otherApi.create('brand', { name: 'Foreign' });
    const foreignWarehouse = await otherApi.create('stock', { code: 'FW', name: 'Foreign store' });

    expect((await api.get(`${base('brand')}/${foreignBrand}`)).body.message).toBe('BrandNotExist');
    expect((await api.put(base('brand'), { id: foreignBrand, name: 'Mine now' })).body.message).toBe('BrandNotExist');
    expect((await api.del(base('brand'), { ids: [foreignBrand] })).body.message).toBe('BrandNotExist');
    expect((await api.put(`${base('stock')}/enable`, { ids: [foreignWarehouse], enabled: false })).body.message).toBe('WarehouseNotExist');
    expect((await api.post(base('location'), { warehouseId: foreignWarehouse, name: 'Sneaky' })).body.message).toBe('WarehouseNotExist');
    const list = await api.get<Array<{ name: string }>>(`${base('brand')}?pageSize=200`);
    expect(list.body.data.map((b) => b.name)).not.toContain('Foreign');

    const [stillThere] = await ctx.database.withTenant(other.tenantId, (tx) => tx.select({ name: brand.name }).from(brand).where(eq(brand.id, foreignBrand)));
    expect(stillThere.name).toBe('Foreign');
  });
});

describe(`clearing basic data (${TEST_DB})`, () => {
  it("empties every basic table of the tenant, stock balances included, and nothing of another tenant's", async () => {
    const mine = await seedTenant(ctx.database, 'Clear');
    const me = await adminCaller(ctx, mine);
    const unitId = await me.create('unit', { name: 'pcs' });
    const cat = await me.create('category', { name: 'C' });
    const m = await me.create('material', { code: 'CL-1', name: 'Clear me', categoryId: cat, units: [{ unitId, isMain: true }] });
    const part = await me.create('material', { code: 'CL-2', name: 'Part', units: [{ unitId, isMain: true }] });
    await me.create('bom', { materialId: m, version: 'V1', lines: [{ materialId: part, quantity: 1 }] });
    const w = await me.create('stock', { code: 'CW', name: 'Clear store' });
    const loc = await me.create('location', { warehouseId: w, name: 'L' });
    await putStock(ctx, mine.tenantId, { materialId: m, warehouseId: w, locationId: loc, quantity: '1' });
    const d = await me.post<{ id: number }>('/api/admin/basic/district', { name: 'D' });
    await me.create('supplier', { code: 'CS', name: 'Clear supplier', contacts: [{ name: 'x' }], addresses: [{ districtId: d.body.data.id }] });
    await me.put(`${base('supplier')}/assign`, { ids: [await me.create('supplier', { code: 'CS2', name: 'Assigned' })], deptIds: [mine.deptId], adminIds: [] });
    const kept = await api.create('brand', { name: 'Kept by the other tenant' });

    const cleared = await me.put<{ cleared: number }>('/api/admin/admin/tenant/clearData', { type: 'basic' });
    expect(cleared.body.status).toBe(0);
    expect(cleared.body.data.cleared).toBeGreaterThan(10);
    for (const record of ['material', 'unit', 'category', 'supplier', 'stock', 'location', 'bom']) {
      expect((await me.get<unknown[]>(base(record))).body.data, record).toEqual([]);
    }
    expect((await api.get(`${base('brand')}/${kept}`)).body.status).toBe(0);
  });
});
