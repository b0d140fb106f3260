import { describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billCreateSchema, billScreenPath, headerFields, lineFields } from '@p8/contract/bills/registry';
import { HEADER, LINE, type FieldDecl } from '@p8/contract/bills/fields';
import { isErrorKey } from '@p8/contract/errors';
import { allows } from '@p8/contract/bills/state-rules';
import { BillStatus } from '@p8/contract/bills/status';
import { amountRules, billTypeByScreen, fieldRefusal, lineAmountRefusal, billTypeName, formHeaderFields, gridFields, gridTotals, lineFigures, listFields, offeredOperations, pushDownNumbers, pushDownQuantityMax, savePayload, shownHeaderFields, waitingOf } from './kit.ts';

const ALL_ON = { openTaxRate: true, openDiscount: true, openBatchNumber: true, openSerialNumber: true, openShelves: true, openSaleOrderBomSelect: true };
/** A valid value of a required field, as the form holds it (pickers as records). */
const sample = (f: FieldDecl): unknown =>
  f.example ?? (f.kind === 'date' ? '2026-11-24' : f.kind === 'month' ? '2026-11' : f.kind === 'enum' ? f.options![0].value : ['text', 'textarea', 'batch'].includes(f.kind) ? 'x' : f.kind === 'number' ? 1 : f.kind === 'staffList' ? [3, 4] : { id: 3, name: 'x' });
const DIGITS = { numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2 };

describe.each(BILL_TYPES.map((decl) => [decl.type, decl] as const))('bill kit for %s', (_type, decl) => {
  it('finds the type from its menu path and component, and names it in both languages', () => {
    expect(billTypeByScreen(billScreenPath(decl))).toBe(decl);
    expect([billTypeName(decl.type, 'zh'), billTypeName(decl.type, 'en')]).toEqual([decl.label.zh, decl.label.en]);
    expect(billTypeByScreen(`${billScreenPath(decl).slice(1)}/index`)).toBe(decl);
  });

  it('lists the bill code first and only list fields; the form leaves out computed fields', () => {
    const cols = listFields(decl, ALL_ON);
    expect(cols[0].key).toBe('billCode');
    expect(cols.every((f) => f.list)).toBe(true);
    const form = formHeaderFields(decl, ALL_ON);
    expect(form.some((f) => f.readOnly || f.kind === 'attachments')).toBe(false);
    expect(form.map((f) => f.key)).toContain('billDate');
  });

  it('hides switched fields while the tenant switch is off', () => {
    const off = gridFields(decl, {});
    expect(off.every((f) => !f.switch)).toBe(true);
    expect(gridFields(decl, ALL_ON)).toHaveLength(lineFields(decl).length);
  });

  it('sends a payload the contract save schema accepts', () => {
    const header: Record<string, unknown> = {};
    for (const f of headerFields(decl)) {
      if (!f.required || f.readOnly) continue;
      header[f.key] = sample(f);
    }
    const line: Record<string, unknown> = { materialId: { id: 7, code: 'M1', name: 'Bolt' }, unitId: 2, number: 4, unitPrice: 2.5, priceTotal: 10, remark: 'r' };
    for (const f of lineFields(decl)) if (f.required && !(f.key in line)) line[f.key] = sample(f);
    const payload = savePayload(decl, { ...header, billCode: '', lines: [line] }, ALL_ON);
    expect(billCreateSchema(decl).safeParse(payload).error).toBeUndefined();
    // A material picked as a record is sent as its id; lines of money have no material and send none.
    const material = lineFields(decl).some((f) => f.key === 'materialId');
    expect((payload.lines as Array<Record<string, unknown>>)[0].materialId).toBe(material ? 7 : undefined);
    expect(payload).not.toHaveProperty('billCode');
    expect((payload.lines as Array<Record<string, unknown>>)[0]).not.toHaveProperty('priceTotal');
  });

  it('shows and sends a field declared shownWhen only while the field it names has one of its values', () => {
    const fields = headerFields(decl);
    for (const f of fields.filter((field) => field.shownWhen)) {
      const condition = f.shownWhen!;
      for (const { value } of fields.find((o) => o.key === condition.field)!.options!) {
        const values = { [condition.field]: value, [f.key]: { id: 3, name: 'x' } };
        const shown = condition.values.includes(value);
        expect(shownHeaderFields(fields, values).includes(f), `${f.key} when ${value}`).toBe(shown);
        expect(savePayload(decl, { ...values, lines: [] }, ALL_ON)[f.key]).toBe(shown ? 3 : undefined);
      }
    }
  });

  it('offers operations only in the statuses that allow them, and only the declared ones', () => {
    expect(offeredOperations(decl, undefined).save).toBe(decl.actions.includes('add'));
    expect(offeredOperations(decl, 'Submitted')).toMatchObject({ save: false, submit: false, audit: decl.actions.includes('audit'), refuse: decl.actions.includes('audit') });
    expect(offeredOperations(decl, 'Audit')).toMatchObject({ save: false, audit: false, abandonAudit: decl.actions.includes('abandonAudit'), manualCompletion: decl.actions.includes('manualCompletion') });
    expect(offeredOperations(decl, 'Merged')).toMatchObject({ save: false, submit: false, audit: false, abandonAudit: false, delete: false });
  });

  it('offers each operation exactly where the shared state table allows it', () => {
    for (const status of BillStatus) {
      const offered = offeredOperations(decl, status);
      for (const op of ['submit', 'audit', 'refuse', 'abandonAudit', 'manualCompletion', 'delete'] as const) {
        const action = op === 'refuse' ? 'audit' : op;
        expect(offered[op], `${status} ${op}`).toBe(allows(status, op) && decl.actions.includes(action));
      }
    }
  });

  it('hides withdrawing the audit once the goods were sent, as the server refuses it', () => {
    expect(offeredOperations(decl, 'Audit', 'NotDelivered').abandonAudit).toBe(decl.actions.includes('abandonAudit'));
    expect(offeredOperations(decl, 'Audit', 'InDelivery').abandonAudit).toBe(false);
    expect(offeredOperations(decl, 'Audit', 'Arrived').abandonAudit).toBe(false);
  });

  it("hides withdrawing the audit where the type's own values keep it, as the server refuses it", () => {
    const hold = decl.keepsAuditWhen;
    if (!hold) return;
    const field = headerFields(decl).find((f) => f.key === hold.when.field)!;
    for (const { value } of field.options ?? hold.when.values.map((v) => ({ value: v }))) {
      const kept = hold.when.values.includes(value);
      expect(offeredOperations(decl, 'Audit', 'NotDelivered', { [hold.when.field]: value }).abandonAudit, `${hold.when.field} ${value}`).toBe(!kept);
    }
  });
});

describe('audit holds', () => {
  it('a started, completed or terminated task keeps its audit; one not started yet offers the withdrawal', () => {
    const task = BILL_TYPES.find((d) => d.type === 'Task')!;
    const offered = (taskStage: string) => offeredOperations(task, 'Audit', 'NotDelivered', { taskStage }).abandonAudit;
    expect(['NotStarted', 'InProgress', 'Completed', 'Terminated'].map(offered)).toEqual([true, false, false, false]);
  });
});

describe('live totals', () => {
  const order = BILL_TYPES.find((d) => d.type === 'PurchaseOrder')!;
  it('rounds each line with the tenant digits, as the server stores it', () => {
    const rules = amountRules(order, DIGITS, ALL_ON);
    expect(lineFigures({ number: 3, unitPrice: 0.335, taxRate: 13, discountRate: 10, ratio: 12 }, rules)).toEqual({ priceTotal: 0.9, taxUnitPrice: 0.38, taxPriceTotal: 1.02, baseNumber: 36 });
    const lines = Array.from({ length: 200 }, (_, i) => ({ number: 1 + (i % 3), unitPrice: 1.005 }));
    const totals = gridTotals(order, lines, rules);
    expect(totals.lines).toBe(200);
    expect(totals.number).toBe(399);
    // 67 × 1.01 + 67 × 2.01 + 66 × 3.02, summed exactly (a float sum would drift to 401.6599…).
    expect(totals.priceTotal).toBe(401.66);
  });
  it("counts an exchange's goods once: the replacements are not added to what goes back", () => {
    const exchange = BILL_TYPES.find((d) => d.type === 'SaleExchange')!;
    const rules = amountRules(exchange, DIGITS, ALL_ON);
    const lines = [
      { exchangeType: 'ExchangeIn', number: 2, unitPrice: 10 },
      { exchangeType: 'ExchangeOut', number: 2, unitPrice: 10 },
    ];
    expect(gridTotals(exchange, lines, rules)).toMatchObject({ lines: 2, number: 2, priceTotal: 20 });
  });
  it('ignores tax and discount while their switches are off', () => {
    const rules = amountRules(order, DIGITS, {});
    expect(lineFigures({ number: 2, unitPrice: 10, taxRate: 13, discountRate: 50 }, rules)).toMatchObject({ priceTotal: 20, taxPriceTotal: 20 });
  });
});

describe('fields behind a tenant switch', () => {
  const outstock = BILL_TYPES.find((d) => d.type === 'SaleOutstock')!;
  const order = BILL_TYPES.find((d) => d.type === 'SaleOrder')!;
  const keys = (decl: typeof order, config: Record<string, boolean>) => gridFields(decl, config).map((f) => f.key);
  it('shows storage locations and a sale order line\'s BOM only while their switches are on, and sends them only then', () => {
    expect(keys(outstock, {})).not.toContain('locationId');
    expect(keys(outstock, { openShelves: true })).toContain('locationId');
    expect(keys(order, {})).not.toContain('bomId');
    expect(keys(order, { openSaleOrderBomSelect: true })).toContain('bomId');
    const values = { billDate: '2026-11-24', customerId: { id: 1, name: 'c' }, lines: [{ materialId: { id: 2, name: 'm' }, number: 1, bomId: 7 }] };
    expect((savePayload(order, values, {}).lines as Array<Record<string, unknown>>)[0].bomId).toBeUndefined();
    expect((savePayload(order, values, { openSaleOrderBomSelect: true }).lines as Array<Record<string, unknown>>)[0].bomId).toBe(7);
  });
});

describe('joint review answers', () => {
  it('says whom an approval still waits for, and nothing for a plain audit', () => {
    expect(waitingOf({ billStatus: 'UnAudit', message: 'WaitOthersVerify', waitingFor: ['Li Si'] })).toEqual({ key: 'WaitOthersVerify', names: ['Li Si'] });
    expect(waitingOf({ billStatus: 'Audit', waitingFor: [] })).toBeUndefined();
    expect(waitingOf(undefined)).toBeUndefined();
    expect(billTypeName('NoSuchBill', 'en')).toBe('NoSuchBill');
  });
});

describe('push-down quantities', () => {
  const lines = [
    { sourceLineId: 1, openNumber: '10' },
    { sourceLineId: 2, openNumber: '2.5' },
  ];
  it('sends only the quantities the user changed', () => {
    expect(pushDownNumbers(lines, {})).toEqual([]);
    expect(pushDownNumbers(lines, { 1: 4, 2: 2.5 })).toEqual([{ sourceLineId: 1, number: 4 }]);
    expect(pushDownNumbers(lines, { 1: null, 2: 1 })).toEqual([{ sourceLineId: 2, number: 1 }]);
    // A dropped line is not in `lines`: its edit is not sent.
    expect(pushDownNumbers(lines.slice(1), { 1: 4 })).toEqual([]);
  });
  it('caps a quantity at the open quantity unless the beyond switch is on', () => {
    expect(pushDownQuantityMax(lines[1], false)).toBe(2.5);
    expect(pushDownQuantityMax(lines[1], true)).toBeUndefined();
  });
});

describe('checks as typed, by the declared schemas', () => {
  const refusal = (field: FieldDecl, value: unknown) => fieldRefusal(field, value, isErrorKey);
  it('refuses on the cell what the server would refuse, with a catalogued key', () => {
    expect(refusal(LINE.number, 0)).toBe('NumberMustGreaterThanZero');
    expect(refusal(LINE.number, -5)).toBe('NumberMustNotBeNegative');
    expect(refusal(LINE.number, 1e17)).toBe('AmountOutOfRange');
    expect(refusal(LINE.unitPrice, -1)).toBe('NumberMustNotBeNegative');
    expect(refusal(LINE.unitPrice, 1e20)).toBe('AmountOutOfRange');
    expect(refusal(LINE.taxRate, 101)).toBe('PercentOutOfRange');
    expect(refusal(HEADER.payWarnDays, 4000)).toBe('WarnDaysOutOfRange');
    expect(refusal(LINE.number, 12.5)).toBeUndefined();
    expect(refusal(LINE.number, null)).toBeUndefined();
    // Pickers are checked by their own rules, not by the id schema (the form holds a record).
    expect(refusal(HEADER.supplierId, { id: 3, name: 'x' })).toBeUndefined();
  });

  it("refuses a line whose amount goes beyond what can be recorded, however large the figures typed", () => {
    const rules = amountRules(BILL_TYPES.find((d) => d.type === 'PurchaseOrder')!, DIGITS, {});
    expect(lineAmountRefusal({ number: 1e13, unitPrice: 1e13 }, rules)).toBe('AmountOutOfRange');
    expect(lineAmountRefusal({ number: 1e22, unitPrice: 1e22 }, rules)).toBe('AmountOutOfRange');
    expect(lineAmountRefusal({ number: 1e6, unitPrice: 1e7 }, rules)).toBeUndefined();
    expect(lineAmountRefusal({ number: null, unitPrice: null }, rules)).toBeUndefined();
  });
});
