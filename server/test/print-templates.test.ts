import { exportDocuments } from '@p8/contract/print/export-documents';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { starterTemplate, type PrintLayout, type PrintTemplateChoice, type PrintTemplateFile, type PrintTemplateRow } from '@p8/contract/print/template';
import { starterLabel, type LabelTemplateChoice } from '@p8/contract/print/label';
import { auditLog, printTemplate } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { grant } from './office-fixtures.ts';
import { staffWith } from './system-fixtures.ts';
import { caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords } from './bill-fixtures.ts';

const BASE = '/api/admin/system/printTemplate';
const ORDER = billType('PurchaseOrder')!;
const OF_ORDER = `${billApiPath(ORDER)}/print/templates`;

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'PtA');
  b = await seedTenant(ctx.database, 'PtB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
});
afterAll(() => ctx.close());

let serial = 0;
/** Tenant A's records bills name (made once: their names are unique). */
let madeRecords: Awaited<ReturnType<typeof createBillRecords>> | undefined;
const billRecords = async () => (madeRecords ??= await createBillRecords(caller(ctx, tokenA, a.adminId)));
const layout = (): PrintLayout => starterTemplate(ORDER, 'zh');
const body = (overrides: Record<string, unknown> = {}) => ({ billType: 'PurchaseOrder', name: `Order ${++serial}`, layout: layout(), ...overrides });
const create = async (sent = body(), token = tokenA) => {
  const res = await call<PrintTemplateRow>(ctx.app, 'POST', BASE, { token, body: sent });
  if (res.body.status !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};
const choices = async (token = tokenA) => (await call<PrintTemplateChoice[]>(ctx.app, 'GET', OF_ORDER, { token })).body;
const stored = (tenant: TestTenant) => ctx.database.withTenant(tenant.tenantId, (tx) => tx.select().from(printTemplate).where(eq(printTemplate.tenantId, tenant.tenantId)));
const auditOf = (tenant: TestTenant, action: string) =>
  ctx.database.withTenant(tenant.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'print-template'), eq(auditLog.action, action))));

describe(`print templates (${TEST_DB})`, () => {
  it('prints every printable bill type with its starter template before any is designed', async () => {
    const fresh = await seedTenant(ctx.database, 'PtFresh');
    const token = await login(ctx.app, fresh.name, fresh.password);
    for (const decl of BILL_TYPES.filter((d) => d.actions.includes('print'))) {
      const res = await call<PrintTemplateChoice[]>(ctx.app, 'GET', `${billApiPath(decl)}/print/templates?lang=en`, { token });
      expect(res.body.status, decl.type).toBe(0);
      // …and a commercial sale bill its export documents, built in (docs/cross-border.md).
      const exported = exportDocuments(decl).map((d) => ({ id: null, builtIn: d.key, name: d.name.en, isDefault: false, layout: d.layout }));
      expect(res.body.data, decl.type).toEqual([{ id: null, name: `${decl.label.en} · standard`, isDefault: true, layout: starterTemplate(decl, 'en') }, ...exported]);
    }
  });

  it("makes a type's first template its default, moves the mark, and prints with the enabled ones, default first", async () => {
    const first = await create();
    expect(first).toMatchObject({ billType: 'PurchaseOrder', isDefault: true, enabled: true, layout: layout() });
    const second = await create(body({ isDefault: true }));
    expect(second.isDefault).toBe(true);
    expect((await call<PrintTemplateRow>(ctx.app, 'GET', `${BASE}/${first.id}`, { token: tokenA })).body.data.isDefault).toBe(false);
    expect((await choices()).data.map((c) => c.id)).toEqual([second.id, first.id]);
    expect((await call(ctx.app, 'PUT', `${BASE}/default`, { token: tokenA, body: { id: first.id } })).body.status).toBe(0);
    expect((await choices()).data.map((c) => [c.id, c.isDefault])).toEqual([[first.id, true], [second.id, false]]);
    expect((await auditOf(a, 'default')).map((e) => e.entityId)).toContain(String(first.id));
    expect((await call(ctx.app, 'PUT', `${BASE}/enable`, { token: tokenA, body: { ids: [first.id], enabled: false } })).body.status).toBe(0);
    expect((await choices()).data.map((c) => c.id)).toEqual([second.id]);
    // Listed by type; the audit log has the create.
    const listed = await call<PrintTemplateRow[]>(ctx.app, 'GET', `${BASE}?billType=PurchaseOrder&pageSize=100`, { token: tokenA });
    expect(listed.body.data.map((t) => t.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect((await auditOf(a, 'create')).map((e) => e.entityId)).toEqual(expect.arrayContaining([String(first.id), String(second.id)]));
  });

  it('refuses a layout the type cannot print and a name the type already has', async () => {
    const taken = await create();
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ name: taken.name }) })).body).toMatchObject({ status: 40001, message: 'PrintTemplateNameRepeat' });
    const withField = (field: string, type = ORDER) => {
      const l = starterTemplate(type, 'zh');
      l.header.elements.push({ id: 'x', type: 'field', field, x: 0, y: 0, w: 10, h: 5, fontSize: 10, bold: false, align: 'left' });
      return l;
    };
    // A customer is a sale order's field, not a purchase order's.
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ layout: withField('customerId') }) })).body.message).toBe('PrintFieldUnknown');
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ billType: 'SaleOrder', layout: withField('customerId', billType('SaleOrder')!) }) })).body.status).toBe(0);
    const column = layout();
    column.table.columns.push({ key: 'nonsense', width: 10 });
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ layout: column }) })).body.message).toBe('PrintFieldUnknown');
    const wide = layout();
    wide.footer.elements[0].w = 500;
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ layout: wide }) })).body.message).toBe('PrintElementOutside');
    const tall = layout();
    tall.header.height = 280;
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ layout: tall }) })).body.message).toBe('PrintPaperTooSmall');
    expect((await call(ctx.app, 'POST', BASE, { token: tokenA, body: body({ billType: 'NoSuchBill' }) })).body.message).toBe('PleaseSelectBillType');
    // An update is checked the same way.
    const { createdAt: _c, updatedAt: _u, ...rest } = taken;
    expect((await call(ctx.app, 'PUT', BASE, { token: tokenA, body: { ...rest, layout: wide } })).body.message).toBe('PrintElementOutside');
  });

  it('copies a template under a new name, never as the default', async () => {
    const original = await create(body({ remark: 'wide' }));
    const res = await call<PrintTemplateRow>(ctx.app, 'POST', `${BASE}/copy`, { token: tokenA, body: { id: original.id, name: `${original.name} copy` } });
    expect(res.body.data).toMatchObject({ name: `${original.name} copy`, isDefault: false, remark: 'wide', layout: original.layout, billType: 'PurchaseOrder' });
    expect((await call(ctx.app, 'POST', `${BASE}/copy`, { token: tokenA, body: { id: original.id, name: original.name } })).body.message).toBe('PrintTemplateNameRepeat');
    expect((await auditOf(a, 'copy')).find((e) => e.entityId === String(res.body.data.id))?.detail).toEqual({ from: original.id, name: `${original.name} copy` });
  });

  it("exports templates as JSON that another tenant imports, numbering names it already has", async () => {
    const one = await create(body({ name: 'Export me' }));
    const exported = await call<PrintTemplateFile>(ctx.app, 'POST', `${BASE}/export`, { token: tokenA, body: { ids: [one.id] } });
    expect(exported.body.data).toEqual({ format: 'p8-print-template', version: 1, templates: [{ billType: 'PurchaseOrder', name: 'Export me', remark: null, layout: one.layout }] });
    const intoB = await call<{ ids: number[] }>(ctx.app, 'POST', `${BASE}/import`, { token: tokenB, body: exported.body.data });
    expect(intoB.body.status).toBe(0);
    const [copy] = await stored(b);
    // B had no purchase order template: the imported one is its default.
    expect(copy).toMatchObject({ id: intoB.body.data.ids[0], name: 'Export me', layout: one.layout, isDefault: true });
    const again = await call<{ ids: number[] }>(ctx.app, 'POST', `${BASE}/import`, { token: tokenA, body: exported.body.data });
    expect((await call<PrintTemplateRow>(ctx.app, 'GET', `${BASE}/${again.body.data.ids[0]}`, { token: tokenA })).body.data).toMatchObject({ name: 'Export me (2)', isDefault: false });
    // A file with a layout its type cannot print adds nothing.
    const bad = structuredClone(exported.body.data);
    bad.templates.push({ ...bad.templates[0], name: 'Broken', layout: { ...bad.templates[0].layout, table: { ...bad.templates[0].layout.table, columns: [{ key: 'nonsense', width: 9 }] } } });
    const before = (await stored(b)).length;
    expect((await call(ctx.app, 'POST', `${BASE}/import`, { token: tokenB, body: bad })).body.message).toBe('PrintFieldUnknown');
    expect(await stored(b)).toHaveLength(before);
    expect((await call(ctx.app, 'POST', `${BASE}/import`, { token: tokenB, body: { format: 'other', templates: [] } })).body.status).toBe(40001);
  });

  it("keeps tenant A's templates from tenant B", async () => {
    const t = await create(body({ name: 'A-only template' }));
    expect((await call(ctx.app, 'GET', `${BASE}/${t.id}`, { token: tokenB })).body.message).toBe('PrintTemplateNotExist');
    expect((await call(ctx.app, 'POST', `${BASE}/export`, { token: tokenB, body: { ids: [t.id] } })).body.message).toBe('PrintTemplateNotExist');
    expect((await call(ctx.app, 'POST', `${BASE}/copy`, { token: tokenB, body: { id: t.id, name: 'stolen' } })).body.message).toBe('PrintTemplateNotExist');
    expect((await call(ctx.app, 'PUT', `${BASE}/default`, { token: tokenB, body: { id: t.id } })).body.message).toBe('PrintTemplateNotExist');
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenB, body: { ids: [t.id] } })).body.message).toBe('PrintTemplateNotExist');
    expect(JSON.stringify(await choices(tokenB))).not.toContain('A-only template');
    expect((await stored(a)).find((r) => r.id === t.id)).toMatchObject({ name: 'A-only template' });
  });

  it("needs the button codes: the screen's for its writes, the bill type's screen for the templates it prints with", async () => {
    const staff = await seedStaff(ctx.database, a);
    const token = await login(ctx.app, staff.name, staff.password);
    const t = await create();
    const attempts: Array<[string, string, unknown, string]> = [
      ['POST', BASE, body(), 'system_printTemplate_add'],
      ['POST', `${BASE}/copy`, { id: t.id, name: 'x' }, 'system_printTemplate_copy'],
      ['PUT', `${BASE}/default`, { id: t.id }, 'system_printTemplate_update'],
      ['POST', `${BASE}/import`, { format: 'p8-print-template', version: 1, templates: [] }, 'system_printTemplate_import'],
      ['POST', `${BASE}/export`, { ids: [t.id] }, 'system_printTemplate_export'],
      ['GET', OF_ORDER, undefined, 'purchase_order'],
    ];
    for (const [method, url, sent, code] of attempts) {
      const res = await call(ctx.app, method as 'POST', url, { token, body: sent });
      expect(res.body, `${method} ${url}`).toMatchObject({ status: 40300, additional: code });
    }
    await grant(ctx, a, staff.roleId, ['purchase_order', 'system_printTemplate_copy']);
    expect((await choices(token)).status).toBe(0);
    expect((await call(ctx.app, 'POST', `${BASE}/copy`, { token, body: { id: t.id, name: `${t.name} by staff` } })).body.status).toBe(0);
    expect((await call(ctx.app, 'DELETE', BASE, { token, body: { ids: [t.id] } })).body.status).toBe(40300);
  });

  it('counts the prints of a bill, audited with the template, within the caller\'s reach', async () => {
    const records = await billRecords();
    const order = (await call<{ id: number; printCount: number }>(ctx.app, 'POST', billApiPath(ORDER), { token: tokenA, body: billPayload(ORDER, records) })).body.data;
    const path = `${billApiPath(ORDER)}/print`;
    expect((await call<{ printCount: number }>(ctx.app, 'POST', path, { token: tokenA, body: { id: order.id } })).body.data).toEqual({ printCount: 1 });
    const template = await create();
    expect((await call<{ printCount: number }>(ctx.app, 'POST', path, { token: tokenA, body: { id: order.id, templateId: template.id } })).body.data).toEqual({ printCount: 2 });
    expect((await call<{ printCount: number }>(ctx.app, 'GET', `${billApiPath(ORDER)}/${order.id}`, { token: tokenA })).body.data.printCount).toBe(2);
    const printed = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'PurchaseOrder'), eq(auditLog.action, 'print'), eq(auditLog.entityId, String(order.id)))));
    expect(printed.map((e) => (e.detail as { templateId: number | null }).templateId)).toEqual([null, template.id]);
    // A template of another type, a bill of another type or tenant: refused, nothing counted.
    const saleTemplate = await create(body({ billType: 'SaleOrder', layout: starterTemplate(billType('SaleOrder')!, 'zh') }));
    expect((await call(ctx.app, 'POST', path, { token: tokenA, body: { id: order.id, templateId: saleTemplate.id } })).body.message).toBe('PrintTemplateNotExist');
    expect((await call(ctx.app, 'POST', `${billApiPath(billType('SaleOrder')!)}/print`, { token: tokenA, body: { id: order.id } })).body.message).toBe('BillNotExist');
    expect((await call(ctx.app, 'POST', path, { token: tokenB, body: { id: order.id } })).body.message).toBe('BillNotExist');
    const staff = await seedStaff(ctx.database, a);
    const plain = await login(ctx.app, staff.name, staff.password);
    expect((await call(ctx.app, 'POST', path, { token: plain, body: { id: order.id } })).body).toMatchObject({ status: 40300, additional: 'purchase_order_print' });
    expect((await call<{ printCount: number }>(ctx.app, 'GET', `${billApiPath(ORDER)}/${order.id}`, { token: tokenA })).body.data.printCount).toBe(2);
  });

  it('prints a selection of bills as one job: each counted and audited, one beyond the caller\'s data scope refuses it all', async () => {
    const records = await billRecords();
    const make = async (token: string) => (await call<{ id: number; billCode: string }>(ctx.app, 'POST', billApiPath(ORDER), { token, body: billPayload(ORDER, records) })).body.data;
    const [one, two] = [await make(tokenA), await make(tokenA)];
    const batch = `${billApiPath(ORDER)}/print/batch`;
    const counts = (await call<Array<{ id: number; printCount: number }>>(ctx.app, 'POST', batch, { token: tokenA, body: { ids: [two.id, one.id] } })).body.data;
    expect(counts).toEqual([{ id: two.id, printCount: 1 }, { id: one.id, printCount: 1 }]);
    const template = await create();
    expect((await call<Array<{ id: number; printCount: number }>>(ctx.app, 'POST', batch, { token: tokenA, body: { ids: [one.id, two.id, one.id], templateId: template.id } })).body.data).toEqual([
      { id: one.id, printCount: 2 },
      { id: two.id, printCount: 2 },
    ]);
    const audited = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'PurchaseOrder'), eq(auditLog.action, 'print'))));
    for (const b of [one, two]) {
      const entries = audited.filter((e) => e.entityId === String(b.id)).map((e) => e.detail as { billCode: string; templateId: number | null; batch: number });
      expect(entries).toEqual([
        { billType: 'PurchaseOrder', billCode: b.billCode, templateId: null, batch: 2 },
        { billType: 'PurchaseOrder', billCode: b.billCode, templateId: template.id, batch: 2 },
      ]);
    }
    // A staff member who sees only their own bills: a selection holding another's bill prints nothing at all.
    const self = await staffWith(ctx, a, { codes: ['purchase_order', 'purchase_order_add', 'purchase_order_print'], dataScope: 'Self' });
    const own = await make(self.token);
    expect((await call(ctx.app, 'POST', batch, { token: self.token, body: { ids: [own.id, one.id] } })).body).toMatchObject({ message: 'BillNotExist', additional: String(one.id) });
    expect((await call<{ printCount: number }>(ctx.app, 'GET', `${billApiPath(ORDER)}/${own.id}`, { token: tokenA })).body.data.printCount).toBe(0);
    expect((await call(ctx.app, 'POST', batch, { token: self.token, body: { ids: [own.id] } })).body.status).toBe(0);
    // Another tenant, a template of another type, no print button, an empty or oversized selection.
    expect((await call(ctx.app, 'POST', batch, { token: tokenB, body: { ids: [one.id] } })).body.message).toBe('BillNotExist');
    const saleTemplate = await create(body({ billType: 'SaleOrder', layout: starterTemplate(billType('SaleOrder')!, 'zh') }));
    expect((await call(ctx.app, 'POST', batch, { token: tokenA, body: { ids: [one.id], templateId: saleTemplate.id } })).body.message).toBe('PrintTemplateNotExist');
    const plain = await staffWith(ctx, a, { codes: ['purchase_order'] });
    expect((await call(ctx.app, 'POST', batch, { token: plain.token, body: { ids: [one.id] } })).body).toMatchObject({ status: 40300, additional: 'purchase_order_print' });
    expect((await call(ctx.app, 'POST', batch, { token: tokenA, body: { ids: [] } })).body.message).toBe('PleaseSelectData');
    expect((await call(ctx.app, 'POST', batch, { token: tokenA, body: { ids: Array.from({ length: 201 }, (_, i) => i + 1) } })).body.message).toBe('PrintBatchTooLarge');
    expect((await call<{ printCount: number }>(ctx.app, 'GET', `${billApiPath(ORDER)}/${one.id}`, { token: tokenA })).body.data.printCount).toBe(2);
    // A PDF downloaded is a print too, audited as a PDF.
    expect((await call<{ printCount: number }>(ctx.app, 'POST', `${billApiPath(ORDER)}/print`, { token: tokenA, body: { id: one.id, output: 'pdf' } })).body.data).toEqual({ printCount: 3 });
    const pdf = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'PurchaseOrder'), eq(auditLog.action, 'print'), eq(auditLog.entityId, String(one.id)))));
    expect(pdf.map((e) => (e.detail as { output?: string }).output)).toEqual([undefined, undefined, 'pdf']);
  });

  it("answers a selection's bills to print in one call, in order, each within the caller's reach", async () => {
    const records = await billRecords();
    const make = async (token: string) => (await call<{ id: number; billCode: string }>(ctx.app, 'POST', billApiPath(ORDER), { token, body: billPayload(ORDER, records) })).body.data;
    const [one, two] = [await make(tokenA), await make(tokenA)];
    const bills = `${billApiPath(ORDER)}/print/bills`;
    const read = (ids: string, token = tokenA) => call<Array<{ id: number; billCode: string; lines: unknown[] }>>(ctx.app, 'GET', `${bills}?ids=${ids}`, { token });
    // Each bill as its form reads it (the same answer as GET …/:id), in the order asked, once.
    const answer = (await read(`${two.id},${one.id},${two.id}`)).body;
    expect(answer.status).toBe(0);
    expect(answer.data.map((b) => b.billCode)).toEqual([two.billCode, one.billCode]);
    expect(answer.data[1]).toEqual((await call(ctx.app, 'GET', `${billApiPath(ORDER)}/${one.id}`, { token: tokenA })).body.data);
    // Outside the caller's data scope, another tenant, no screen, an empty, malformed or oversized selection.
    const self = await staffWith(ctx, a, { codes: ['purchase_order', 'purchase_order_add'], dataScope: 'Self' });
    const own = await make(self.token);
    expect((await read(`${own.id}`, self.token)).body.status).toBe(0);
    expect((await read(`${own.id},${one.id}`, self.token)).body).toMatchObject({ message: 'BillNotExist', additional: String(one.id) });
    expect((await read(`${one.id}`, tokenB)).body.message).toBe('BillNotExist');
    const other = await staffWith(ctx, a, { codes: ['sale_order'] });
    expect((await read(`${one.id}`, other.token)).body).toMatchObject({ status: 40300, additional: 'purchase_order' });
    expect((await read('')).body.message).toBe('PleaseSelectData');
    expect((await read('1,x')).body.message).toBe('PleaseSelectData');
    expect((await read(Array.from({ length: 201 }, (_, i) => i + 1).join(','))).body.message).toBe('PrintBatchTooLarge');
  });

  it('keeps label templates per kind (the first the default, the starter always offered), refuses a label that overruns its sheet, within the tenant', async () => {
    const LABEL = `${BASE}/label`;
    const of = async (kind: string, token = tokenA) => (await call<LabelTemplateChoice[]>(ctx.app, 'GET', `${LABEL}?kind=${kind}&lang=en`, { token })).body.data;
    expect(await of('material')).toEqual([{ id: null, kind: 'material', name: 'Material label · standard', isDefault: true, layout: starterLabel('material') }]);
    const wide = { ...starterLabel('material'), columns: 2, labelWidth: 100, gapX: 4 };
    const first = (await call<LabelTemplateChoice>(ctx.app, 'POST', LABEL, { token: tokenA, body: { kind: 'material', name: 'Two across', layout: wide } })).body.data;
    expect(first).toMatchObject({ kind: 'material', isDefault: true, layout: wide });
    const second = (await call<LabelTemplateChoice>(ctx.app, 'POST', LABEL, { token: tokenA, body: { kind: 'material', name: 'Small', layout: starterLabel('material') } })).body.data;
    expect(second.isDefault).toBe(false);
    expect((await of('material')).map((c) => [c.id, c.isDefault])).toEqual([
      [first.id, true],
      [second.id, false],
      [null, false],
    ]);
    // Refusals: a name the kind has, labels wider than the paper, a field of another kind; another tenant sees none.
    expect((await call(ctx.app, 'POST', LABEL, { token: tokenA, body: { kind: 'material', name: 'Small', layout: starterLabel('material') } })).body.message).toBe('LabelTemplateNameRepeat');
    expect((await call(ctx.app, 'POST', LABEL, { token: tokenA, body: { kind: 'material', name: 'Too wide', layout: { ...wide, columns: 3 } } })).body.message).toBe('PrintElementOutside');
    expect((await call(ctx.app, 'POST', LABEL, { token: tokenA, body: { kind: 'location', name: 'Odd', layout: starterLabel('material') } })).body.message).toBe('PrintFieldUnknown');
    expect((await of('material', tokenB)).map((c) => c.id)).toEqual([null]);
    expect((await call(ctx.app, 'PUT', LABEL, { token: tokenB, body: { id: second.id, kind: 'material', name: 'Mine', isDefault: true, layout: wide } })).body.message).toBe('LabelTemplateNotExist');
    // Made the default: the mark moves; deleted: gone, audited.
    expect((await call<LabelTemplateChoice>(ctx.app, 'PUT', LABEL, { token: tokenA, body: { id: second.id, kind: 'material', name: 'Small', isDefault: true, layout: starterLabel('material') } })).body.data.isDefault).toBe(true);
    expect((await of('material')).filter((c) => c.isDefault).map((c) => c.id)).toEqual([second.id]);
    expect((await call(ctx.app, 'DELETE', LABEL, { token: tokenA, body: { ids: [first.id] } })).body.status).toBe(0);
    expect((await of('material')).map((c) => c.id)).toEqual([second.id, null]);
    const audited = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(eq(auditLog.entity, 'label-template')));
    expect(audited.map((e) => e.action).sort()).toEqual(['create', 'create', 'delete', 'update']);
    // Read by the screens that print labels; written under the print templates' buttons.
    const reader = await staffWith(ctx, a, { codes: ['basic_location'] });
    expect((await call(ctx.app, 'GET', `${LABEL}?kind=location`, { token: reader.token })).body.status).toBe(0);
    expect((await call(ctx.app, 'POST', LABEL, { token: reader.token, body: { kind: 'location', name: 'Loc', layout: starterLabel('location') } })).body).toMatchObject({ status: 40300, additional: 'system_printTemplate_add' });
  });

  it("prints labels under the list's print-labels button, per kind, audited with the template and how many", async () => {
    const api = caller(ctx, tokenA, a.adminId);
    const unit = await api.create('unit', { name: 'LabelUnit' });
    const mat = await api.create('material', { code: 'LBL-M1', name: 'Label material', units: [{ unitId: unit, isMain: true }] });
    const stock = await api.create('stock', { code: 'LBL-W', name: 'Label warehouse' });
    const loc = await api.create('location', { warehouseId: stock, name: 'Label location' });
    const box = (await call<LabelTemplateChoice>(ctx.app, 'POST', `${BASE}/label`, { token: tokenA, body: { kind: 'box', name: 'Boxes', layout: starterLabel('box') } })).body.data;
    const MATERIALS = '/api/admin/basic/material/label/print';
    const LOCATIONS = '/api/admin/basic/location/label/print';
    const print = (url: string, body: Record<string, unknown>, token = tokenA) => call(ctx.app, 'POST', url, { token, body });
    expect((await print(MATERIALS, { kind: 'material', ids: [mat], labels: 30 })).body).toMatchObject({ status: 0, data: { labels: 30 } });
    expect((await print(MATERIALS, { kind: 'box', templateId: box.id, ids: [mat, mat], labels: 3, output: 'pdf' })).body.status).toBe(0);
    expect((await print(LOCATIONS, { kind: 'location', ids: [loc], labels: 1 })).body.status).toBe(0);
    const audited = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'label-template'), eq(auditLog.action, 'print'))));
    expect(audited.map((e) => e.detail)).toEqual([
      { kind: 'material', templateId: null, records: 1, labels: 30 },
      { kind: 'box', templateId: box.id, records: 1, labels: 3, output: 'pdf' },
      { kind: 'location', templateId: null, records: 1, labels: 1 },
    ]);
    // A kind the route does not print, a template of another kind, records of nobody or of another tenant.
    expect((await print(LOCATIONS, { kind: 'material', ids: [mat], labels: 1 })).body.message).toBe('PleaseSelectData');
    expect((await print(MATERIALS, { kind: 'material', templateId: box.id, ids: [mat], labels: 1 })).body.message).toBe('LabelTemplateNotExist');
    expect((await print(MATERIALS, { kind: 'material', ids: [999999], labels: 1 })).body.message).toBe('MaterialNotExist');
    expect((await print(LOCATIONS, { kind: 'location', ids: [loc], labels: 1 }, tokenB)).body.message).toBe('LocationNotExist');
    // The button codes: the materials screen alone does not print labels; each list's code prints its own kinds only.
    const viewer = await staffWith(ctx, a, { codes: ['basic_material', 'basic_location'] });
    expect((await print(MATERIALS, { kind: 'material', ids: [mat], labels: 1 }, viewer.token)).body).toMatchObject({ status: 40300, additional: 'basic_material_printLabel' });
    expect((await print(LOCATIONS, { kind: 'location', ids: [loc], labels: 1 }, viewer.token)).body).toMatchObject({ status: 40300, additional: 'basic_location_printLabel' });
    const printer = await staffWith(ctx, a, { codes: ['basic_material_printLabel'] });
    expect((await print(MATERIALS, { kind: 'box', ids: [mat], labels: 2 }, printer.token)).body.status).toBe(0);
    expect((await print(LOCATIONS, { kind: 'location', ids: [loc], labels: 1 }, printer.token)).body.status).toBe(40300);
  });
});
