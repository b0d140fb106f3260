import { expect } from 'vitest';
import type { StockDifference } from '@p8/contract/bills/api';
import { BILL_TYPES, billType, downstreamTypes } from '@p8/contract/bills/catalogue';
import { billApiPath, headerFields, lineFields, lineKindOf, meets, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { MONEY_TYPE_SHAPES, type FinanceDifference } from '@p8/contract/finance';
import type { Caller } from './basic-fixtures.ts';
import type { TestContext } from './harness.ts';
import type { BackgroundJobView } from '@p8/contract/system';
import { InspectionKind } from '@p8/contract/quality';
import { distinct } from '../src/core/ids.ts';

/**
 * A valid save payload of any declared bill type, its required header fields filled by kind from the
 * records given (supplier, customer, warehouses, materials), so that tests can walk the whole registry.
 */
export interface BillRecords {
  supplier: number;
  customer: number;
  warehouse: number;
  otherWarehouse: number;
  /** A material in stock in `warehouse` (out-stocks take 2 of it). */
  material: number;
  /** Assembly: the product made and the component used (4 of it in stock). */
  product: number;
  component: number;
  /** Finance's bills: a fund account with money in it, an expense and an income fee type (createOtherBillRecords). */
  fundAccount?: number;
  expenseFee?: number;
  incomeFee?: number;
  /** Salaries: the staff member paid (the caller's own account will do). */
  staff?: number;
  /** Entrusted machining: a customer and its consignment warehouse (the types declaring `customerStock` move only its goods). */
  consignment?: { customer: number; warehouse: number };
  /**
   * Records that fields name by kind, set on each line field naming that kind (a production order's process lines:
   * a process) and on each required header field (a maintenance's machine).
   */
  lineRefs?: Record<string, number>;
}

/**
 * The caller as a member of an attendance group where every day is a workday (09:00–18:00) and replacements are
 * allowed up to 31 a month, within 31 days — unless the caller is in a group already: what a replacement
 * clock-in request (people's `Replacement`) needs to pass its rules.
 */
export async function joinAttendanceGroup(api: Caller, marker = 'F'): Promise<void> {
  const month = localDay(0).slice(0, 7);
  if ((await api.get(`/api/admin/people/clock?month=${month}`)).body.status === 0) return;
  const year = Number(localDay(1).slice(0, 4));
  // Listed days keep the statutory holidays from being generated: weekly rest none, every day a workday.
  const calendarId = await api.create('calendar', { name: `${marker}-calendar`, year, weeklyRest: 'none', days: [{ date: `${year}-12-31`, dayType: 'workday' }] });
  const shiftId = await api.create('shift', { name: `${marker}-shift`, lateGrace: 0, earlyGrace: 0, inWindow: 60, outWindow: 60, periods: [{ start: '09:00', end: '18:00' }] });
  await api.create('attendanceGroup', { name: `${marker}-group`, calendarId, shiftId, allowOutside: true, replacementPerMonth: 31, replacementDays: 31, replaceLateEarly: false, members: [{ staffId: api.adminId }] });
}

/** The local `yyyy-mm-dd` of `daysAgo` days before today. */
function localDay(daysAgo: number): string {
  const d = new Date();
  d.setDate(d.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * A replacement request's day and time (a check the caller of joinAttendanceGroup missed): a fresh one on each
 * call — the clock-in then the clock-out of yesterday, then of the day before… — so that walks auditing several
 * requests in one tenant each fill a check of their own.
 */
let replacementSlot = 0;
function nextReplacement(): { replaceDate: string; replaceTime: string } {
  const slot = replacementSlot++ % 60;
  return { replaceDate: localDay(1 + Math.floor(slot / 2)), replaceTime: slot % 2 ? '18:00' : '09:00' };
}

/** The records finance's, production's and quality's bills name: a fund account (100,000 in it), an expense and an income fee type, a process, a machine, a workshop, a customer's consignment warehouse and a general template of each inspection. */
export async function createOtherBillRecords(api: Caller, marker = 'F'): Promise<Required<Pick<BillRecords, 'fundAccount' | 'expenseFee' | 'incomeFee' | 'staff' | 'lineRefs' | 'consignment'>>> {
  const fund = await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: `${marker}-fund`, kind: 'bank', openingBalance: 100000, openingDate: '2026-01-01' }));
  // Every inspection has a general template (an inspection without one is refused); none holds the goods back, so
  // the walks take what they like — quality.test.ts tests the templates that do.
  for (const kind of InspectionKind) {
    await api.create('inspectionTemplate', { code: `${marker}-QT-${kind}`, name: `${marker} ${kind}`, inspectionKind: kind, sampling: 'All', gates: false, items: [{ name: 'Look', valueKind: 'PassFail', blocks: false }] });
  }
  await joinAttendanceGroup(api, marker);
  const entrusting = await api.create('customer', { code: `${marker}-CE`, name: `${marker}-entrusting customer` });
  return {
    consignment: { customer: entrusting, warehouse: await api.create('stock', { code: `${marker}-WC`, name: `${marker}-consignment`, customerId: entrusting }) },
    fundAccount: fund.id,
    expenseFee: await api.create('fee', { name: `${marker}-freight`, kind: 'expense' }),
    incomeFee: await api.create('fee', { name: `${marker}-interest`, kind: 'income' }),
    staff: api.adminId,
    lineRefs: {
      process: await api.create('process', { name: `${marker}-process`, pieceRate: 1.5 }),
      equipment: await api.create('equipment', { code: `${marker}-M1`, name: `${marker}-machine`, status: 'running', maintenanceDays: 30 }),
      // The workshop a consumables issue names.
      department: (await ok(api.post<{ id: number }>('/api/admin/security/dept', { name: `${marker}-workshop` }))).id,
    },
  };
}

/**
 * Turns on, through the tenant config screen's API, the switches that let every declared type be entered
 * directly (each type's `directNeedsSwitch`: a sale out-stock without an order) and that open a type at all
 * (`opensWith`: consumables issues), as a walk over the registry saves one of each type without a source.
 */
export async function allowDirectBills(api: Caller): Promise<void> {
  const switches = Object.fromEntries(BILL_TYPES.flatMap((d) => [d.directNeedsSwitch, d.opensWith?.switch].flatMap((key) => (key ? [[key, true]] : []))));
  await ok(api.put('/api/admin/admin/tenant', switches));
}

/** The business tags every type's lines ask of their materials (a consumables issue takes only consumables): a walk's material carries them all. */
export const WALKED_TAGS = distinct(BILL_TYPES.flatMap((d) => (d.materialTag ? [d.materialTag.tag] : [])));

/**
 * The basic records a bill test needs (a unit, three materials, a supplier, a customer, two warehouses), made
 * through the API, with direct bills of every type allowed (allowDirectBills).
 */
export async function createBillRecords(api: Caller): Promise<BillRecords> {
  await allowDirectBills(api);
  const piece = await api.create('unit', { name: 'pc' });
  const material = await api.create('material', { code: 'P1', name: 'Part', units: [{ unitId: piece, isMain: true }], tags: WALKED_TAGS });
  const product = await api.create('material', { code: 'P2', name: 'Kit', units: [{ unitId: piece, isMain: true }] });
  const component = await api.create('material', { code: 'P3', name: 'Bolt', units: [{ unitId: piece, isMain: true }] });
  const supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  const customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  const warehouse = await api.create('stock', { code: 'W1', name: 'Main' });
  const otherWarehouse = await api.create('stock', { code: 'W2', name: 'Second' });
  return { supplier, customer, warehouse, otherWarehouse, material, product, component, ...(await createOtherBillRecords(api)) };
}

export function billPayload(decl: BillTypeDecl, records: BillRecords, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const header: Record<string, unknown> = { billDate: '2026-11-24' };
  for (const field of headerFields(decl)) {
    if (!field.required || field.key in header) continue;
    if (field.ref === 'supplier') header[field.key] = records.supplier;
    else if (field.ref === 'customer') header[field.key] = records.customer;
    else if (field.ref === 'warehouse') header[field.key] = field.key === 'targetWarehouseId' ? records.otherWarehouse : records.warehouse;
    else if (field.kind === 'enum') header[field.key] = field.options![0].value;
    else if (field.kind === 'text') header[field.key] = field.example ?? 'Zhang San';
    else if (field.kind === 'month') header[field.key] = '2026-11';
    else if (field.ref && records.lineRefs?.[field.ref]) header[field.key] = records.lineRefs[field.ref];
  }
  // A customer's materials (entrusted machining) go only to and from its consignment warehouse.
  if (decl.customerStock && records.consignment) Object.assign(header, { customerId: records.consignment.customer, warehouseId: records.consignment.warehouse });
  if (decl.stock !== 'none') header.warehouseId ??= records.warehouse;
  const kind = lineKindOf(decl);
  // A task: its title, due date and the caller as its assignee.
  if (decl.type === 'Task') return { ...header, title: 'Check the press', dueDate: '2026-11-30', assigneeIds: [records.staff], lines: [], ...overrides };
  // A replacement clock-in: a check the caller missed (joinAttendanceGroup), a reason.
  if (kind === 'none' && !decl.extraAmount) return { ...header, ...nextReplacement(), replaceReason: 'Forgot to clock in', lines: [], ...overrides };
  if (kind === 'none') {
    // A bill that is its header (an opening balance): the first type, the partner of its side, the amount.
    for (const field of headerFields(decl)) {
      if (!field.shownWhen || !meets(field.shownWhen, { ...header, ...overrides })) continue;
      if (field.ref === 'supplier') header[field.key] = records.supplier;
      if (field.ref === 'customer') header[field.key] = records.customer;
    }
    return { ...header, [decl.extraAmount!]: '10.50', lines: [], ...overrides };
  }
  if (kind !== 'material') {
    // Lines of money: through the fund account; a payment or receipt as an advance (it settles no bill).
    if (headerFields(decl).some((f) => f.key === 'fundAccountId')) header.fundAccountId = records.fundAccount;
    // A type that only settles (a salary payment): no line until `sourcedLines` names the bill it settles.
    if (kind === 'settlement' && decl.sourceRequired) return { ...header, lines: [], ...overrides };
    if (kind === 'settlement') {
      const typeField = headerFields(decl).find((f) => f.kind === 'enum' && f.required)!;
      header[typeField.key] = typeField.options!.find((o) => MONEY_TYPE_SHAPES[o.value as keyof typeof MONEY_TYPE_SHAPES]?.settles === false)!.value;
      header[decl.extraAmount!] = 10;
      return { ...header, lines: [], ...overrides };
    }
    // Staff lines (salaries): net 100.00 of pay items less deductions.
    if (kind === 'staff') return { ...header, lines: [{ staffId: records.staff, basePay: '100', bonus: '10.50', socialInsurance: '8', incomeTax: '2.50' }], ...overrides };
    const fee = decl.type === 'Income' ? records.incomeFee : records.expenseFee;
    return { ...header, lines: [{ feeTypeId: fee, amount: '10.50' }], ...overrides };
  }
  const lines =
    decl.stock === 'assembly'
      ? [
          { materialId: records.product, number: 1, direction: 'in' },
          { materialId: records.component, number: 4, direction: 'out' },
        ]
      : decl.pairedLines
        ? [
            // An exchange: the goods exchanged (taking from the source line) and their replacement.
            { materialId: records.material, number: 2, unitPrice: 10, [decl.pairedLines.field]: decl.pairedLines.taking },
            { materialId: records.material, number: 2, [decl.pairedLines.field]: decl.pairedLines.twin },
          ]
        : roleField(decl)
          ? // Lines of several roles (a production order's product and material): one of each, the first role first.
            roleField(decl)!.options!.map((o, i) => ({ materialId: i === 0 ? records.material : records.component, number: 2, unitPrice: 10, [roleField(decl)!.key]: o.value, ...lineRefs(decl, records) }))
          : [{ materialId: records.material, number: 2, unitPrice: 10, ...lineRefs(decl, records) }];
  return { ...header, lines, ...overrides };
}

/**
 * The lines of a payload of a `sourceRequired` type taken from an audited bill of its first source type:
 * material lines from the source's first line; one settlement line settling 40 of the source bill itself.
 */
export function sourcedLines(decl: BillTypeDecl, lines: Array<Record<string, unknown>>, source: { id: number; lines: Array<{ id: number } & Record<string, unknown>> }) {
  if (lineKindOf(decl) === 'settlement') return [{ sourceBillId: source.id, amount: '40' }];
  // The first source line this type takes (a pick takes a production order's material line), with its material.
  const taken = source.lines.find((l) => meets(decl.sources[0].fromLines, l)) ?? source.lines[0];
  // At most the source line's quantity (a report line of one good piece offers one to account).
  const most = (n: unknown) => (typeof n === 'number' && typeof taken.number === 'number' ? Math.min(n, taken.number) : n);
  return lines.map((l) => ({ ...l, materialId: taken.materialId ?? l.materialId, sourceLineId: taken.id, number: most(l.number) }));
}

/** The line fields of `decl` naming a kind `records.lineRefs` gives, with its record; a required staff member (a worker) the staff's; the fields downstream types take instead of the quantity. */
function lineRefs(decl: BillTypeDecl, records: BillRecords): Record<string, number> {
  const refOf = (f: FieldDecl) => records.lineRefs?.[f.ref!] ?? (f.ref === 'staff' && f.required ? records.staff : undefined);
  // A field a downstream type takes instead of the quantity (a report's scrapped pieces for a waste in-stock): one
  // piece of the line's two, so that the downstream walk has something to take and the line still reports no more
  // than its source holds (a step's good and scrapped pieces both take of what it may report).
  const offered = downstreamTypes(decl.type).flatMap((d) => d.sources.filter((s) => s.type === decl.type && s.offers).map((s) => [s.offers!, 1] as const));
  return { ...Object.fromEntries(lineFields(decl).flatMap((f) => (f.ref && refOf(f) ? [[f.key, refOf(f)!]] : []))), ...Object.fromEntries(offered), ...(offered.length ? { number: 1 } : {}) };
}

/**
 * What a bill of `decl` consumes of its audited source bill (its first source's `consumes`: an outsourcing receipt
 * consumes the materials its order's picks sent), provided first: a bill of the type driving that kind, taking every
 * source line it may take at its full quantity, from `records.warehouse`, audited through `post` (any caller:
 * answers the envelope). Nothing for a type that consumes nothing.
 */
export async function feedConsumed(
  post: (url: string, body: Record<string, unknown>) => Promise<{ status: number; data?: unknown }>,
  decl: BillTypeDecl,
  records: BillRecords,
  source: { lines: Array<{ id: number } & Record<string, unknown>> },
): Promise<void> {
  const kind = decl.sources[0]?.consumes;
  if (!kind) return;
  const sourceType = decl.sources[0].type;
  const feeder = downstreamTypes(sourceType).find((d) => d.sources.some((s) => s.type === sourceType && s.drives === kind))!;
  const taking = feeder.sources.find((s) => s.type === sourceType)!;
  const lines = source.lines.filter((l) => meets(taking.fromLines, l)).map((l) => ({ materialId: l.materialId, unitId: l.unitId, number: l.number, sourceLineId: l.id }));
  const header = billPayload(feeder, records);
  const made = await post(billApiPath(feeder), { ...header, lines });
  expect(made, JSON.stringify(made)).toMatchObject({ status: 0 });
  const id = (made.data as { id: number }).id;
  for (const step of ['submit', 'audit']) {
    const res = await post(`${billApiPath(feeder)}/${step}`, { id });
    expect(res, JSON.stringify(res)).toMatchObject({ status: 0 });
  }
}

/** A required choice every line of a type makes that the fixtures do not set otherwise (a production order line's role). */
function roleField(decl: BillTypeDecl) {
  return decl.stock === 'assembly' || decl.pairedLines ? undefined : lineFields(decl).find((f) => f.kind === 'enum' && f.required && f.options?.length);
}

/** The header a bill of `decl`'s first source type needs to feed it: its `onlyWhen` met (an exchange refund for an exchange bill). */
export function feedingSource(decl: BillTypeDecl): Record<string, unknown> {
  const when = decl.sources[0]?.onlyWhen;
  return when ? { [when.field]: when.values[0] } : {};
}

/** The API path of a declared type. */
export const billPath = (type: string) => billApiPath(billType(type)!);

/**
 * A bill's life through the API as the caller `api()` answers (a suite signs in once it starts): `get` its
 * detail, `saved` (created on `billDate` unless the body names one) answering its id, `pass` (submitted and audited).
 */
export function billSteps<B>(api: () => Caller, billDate: string) {
  return {
    get: (type: string, id: number) => ok(api().get<B>(`${billPath(type)}/${id}`)),
    async saved(type: string, body: Record<string, unknown>) {
      return (await ok(api().post<{ id: number }>(billPath(type), { billDate, ...body }))).id;
    },
    async pass(type: string, id: number) {
      await ok(api().post(`${billPath(type)}/submit`, { id }));
      await ok(api().post(`${billPath(type)}/audit`, { id }));
    },
  };
}

/** The data of a successful answer (the test fails on any other). */
export async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}

/** The answer must be the refusal `key`. */
export async function refused(promise: Promise<{ body: { status: number; message: string } }>, key: string) {
  const res = await promise;
  expect(res.body.message, JSON.stringify(res.body)).toBe(key);
}

/** A bill of `type` saved (lines none unless given), submitted and audited by `api`; the test fails on any refusal. */
export async function auditedBill(api: Caller, type: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(api.post<{ id: number }>(billPath(type), { lines: [], ...body }));
  await ok(api.post(`${billPath(type)}/submit`, { id }));
  await ok(api.post(`${billPath(type)}/audit`, { id }));
  return id;
}

/**
 * Stock to take from (an audited other in-stock of the material and the component), then one audited bill of
 * each kind of lines and stock effect that can be entered directly; answers the kinds (`lines:stock`).
 */
export async function auditOneOfEachKind(api: Caller, records: BillRecords): Promise<string[]> {
  const instock = billType('OtherInstock')!;
  const stocked = [records.material, records.component].map((materialId) => ({ materialId, number: 50, unitPrice: 10 }));
  await auditedBill(api, instock.type, billPayload(instock, records, { lines: stocked }));
  const kinds = new Set<string>();
  for (const decl of BILL_TYPES) {
    const kind = `${lineKindOf(decl)}:${decl.stock}`;
    if (decl.sourceRequired || kinds.has(kind)) continue;
    kinds.add(kind);
    await auditedBill(api, decl.type, billPayload(decl, records));
  }
  return [...kinds];
}

/** The books agree: POST /finance/verify finds no difference (the end of every finance test). */
export async function financeVerifyEmpty(api: Caller) {
  expect(await ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'))).toEqual([]);
}

/** Every balance and valuation agrees with the ledger (the end of every stock test). */
export async function verifyEmpty(api: Caller) {
  expect(await ok(api.post<StockDifference[]>('/api/admin/stock/verify'))).toEqual([]);
}

/** Stock of a material in a warehouse (all locations, batches and serials), from the current-stock report. */
export async function stockOf(api: Caller, materialId: number, warehouseId: number): Promise<number> {
  const page = await ok(api.get<Array<{ quantity: string }>>(`/api/admin/stock/current?materialId=${materialId}&warehouseId=${warehouseId}&pageSize=200`));
  return page.reduce((s, r) => s + Number(r.quantity), 0);
}

/** The trial balance's balance per account code (natural side positive); its debit and credit totals agree. */
export async function trialBalances(api: Caller): Promise<Record<string, number>> {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }>; debitTotal: string; creditTotal: string }>('/api/admin/finance/trialBalance'));
  expect(trial.debitTotal).toBe(trial.creditTotal);
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}

/**
 * Runs the month-end cost of `period` as the background job it is (started, then polled until it ends, the
 * job runner stopped again) and answers the finished job, succeeded or failed.
 */
export async function runCostJob(ctx: TestContext, api: Caller, period: string, basis?: string): Promise<BackgroundJobView> {
  const { id } = await ok(api.post<{ id: number }>('/api/admin/production/cost/run', basis === undefined ? { period } : { period, basis }));
  ctx.app.jobs.start();
  try {
    for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
      const job = await ok(api.get<BackgroundJobView>(`/api/admin/system/jobs/${id}`));
      if (job.status === 'succeeded' || job.status === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`cost run still ${job.status}`);
    }
  } finally {
    await ctx.app.jobs.stop();
  }
}
