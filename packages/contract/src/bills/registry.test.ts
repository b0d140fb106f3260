import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../errors.ts';
import { tenantConfigSchema } from '../tenant-config.ts';
import { lineAmounts } from './amounts.ts';
import { BILL_TYPES, billType, downstreamTypes, progressRollups } from './catalogue.ts';
import { microText, roundTo, toMicro } from './decimal.ts';
import { BILL_HEADER_COLUMNS } from './fields.ts';
import { REFUND_RULES } from './supply-chain.ts';
import { InboundCost, LINE_DIRECTION, lineDirection, meets, OutboundCost, STOCK_SIDES } from './registry.ts';
import { RefundType } from './status.ts';
import { billButtons, billCreateSchema, billMenuName, headerFields, lineFields, lineKindOf } from './registry.ts';
import { MaterialTag } from '../basic.ts';

const CONFIG_KEYS = new Set(Object.keys(tenantConfigSchema.shape));

describe('bill-type registry', () => {
  it('names every type, route, menu and code prefix once', () => {
    for (const list of [BILL_TYPES.map((d) => d.type), BILL_TYPES.map(billMenuName), BILL_TYPES.map((d) => d.codePrefix)]) {
      expect(new Set(list).size).toBe(list.length);
    }
  });

  it('rolls progress up through the declared intermediates, and only through them', () => {
    expect(progressRollups('SaleOrder')).toEqual([{ source: 'SaleOrder', via: ['SaleShip'], by: 'SaleOutstock', kind: 'outstock' }]);
    // An order's push-down progress does not reach its quotation; a refund's invoice is not the in-stock's.
    for (const type of ['SaleQuotation', 'PurchaseRequisition', 'PurchaseInstock', 'SaleOutstock']) expect(progressRollups(type), type).toEqual([]);
    for (const decl of BILL_TYPES) for (const r of progressRollups(decl.type)) expect(decl.progress, `${decl.type} shows ${r.kind}`).toContain(r.kind);
  });

  it.each(BILL_TYPES.map((d) => [d.type, d] as const))('%s: sources, fields, switches and messages exist', (_type, decl) => {
    const header = new Set(headerFields(decl).map((f) => f.key));
    const lines = new Set(lineFields(decl).map((f) => f.key));
    for (const source of decl.sources) {
      const from = billType(source.type);
      expect(from, `source ${source.type}`).toBeDefined();
      const fromHeader = new Set(headerFields(from!).map((f) => f.key));
      const fromLines = new Set(lineFields(from!).map((f) => f.key));
      for (const key of source.header) expect(header.has(key) && fromHeader.has(key), `header ${key}`).toBe(true);
      for (const key of source.lines) expect(lines.has(key) && fromLines.has(key), `line ${key}`).toBe(true);
      expect(from!.progress, `${source.type} shows ${source.drives}`).toContain(source.drives);
      // What a source offers instead of its quantity is a quantity field of its lines (a report's scrapped pieces).
      if (source.offers) expect(lineFields(from!).find((f) => f.key === source.offers)?.kind, `offers ${source.offers}`).toBe('quantity');
      for (const key of [source.beyondSwitch, source.additionalSwitch]) if (key) expect(CONFIG_KEYS.has(key)).toBe(true);
      // Conditions name a header field of the bill they read (the source for onlyWhen: a column or its own
      // field, kept in `extra`; this one for drivesWhen: a column).
      if (source.onlyWhen) expect(fromHeader.has(source.onlyWhen.field), `onlyWhen ${source.onlyWhen.field}`).toBe(true);
      if (source.drivesWhen) expect(header.has(source.drivesWhen.field) && BILL_HEADER_COLUMNS.includes(source.drivesWhen.field as never)).toBe(true);
      if (source.onlyWhenRefusal) expect(errorCatalogue[source.onlyWhenRefusal]).toBeDefined();
      if (source.closedRefusal) expect(errorCatalogue[source.closedRefusal]).toBeDefined();
      for (const key of Object.keys(source.lineDefaults ?? {})) expect(lines.has(key), `lineDefaults ${key}`).toBe(true);
      // fromLines names a choice every line of the source makes, by values it offers.
      if (source.fromLines) {
        const choice = lineFields(from!).find((f) => f.key === source.fromLines!.field);
        expect(choice?.required && choice.options?.map((o) => o.value), `fromLines ${source.fromLines.field}`).toEqual(expect.arrayContaining([...source.fromLines.values]));
      }
      // What a bill passes on to its source is progress both show, and material quantities (never an amount).
      for (const kind of source.passes ?? []) {
        expect(decl.progress, `${decl.type} shows ${kind}`).toContain(kind);
        expect(from!.progress, `${source.type} shows ${kind}`).toContain(kind);
        expect(decl.lineKind ?? 'material', `${decl.type} passes quantities`).toBe('material');
      }
    }
    for (const key of decl.switches) expect(CONFIG_KEYS.has(key), key).toBe(true);
    // A direct bill needs a switch only where a bill may come from a source, and the switch is shown on its help.
    if (decl.directNeedsSwitch) {
      expect(CONFIG_KEYS.has(decl.directNeedsSwitch), decl.directNeedsSwitch).toBe(true);
      expect(decl.sources.length).toBeGreaterThan(0);
      expect(decl.switches).toContain(decl.directNeedsSwitch);
    }
    // A type a switch opens shows the switch on its help and refuses with a catalogued key; so does a material tag.
    if (decl.opensWith) {
      expect(CONFIG_KEYS.has(decl.opensWith.switch), decl.opensWith.switch).toBe(true);
      expect(decl.switches).toContain(decl.opensWith.switch);
      expect(errorCatalogue[decl.opensWith.refusal]).toBeDefined();
    }
    // What keeps a bill's audit is one of its own header fields (read-only: the user cannot clear it), refused
    // with a catalogued key, and only for a type whose audit can be withdrawn at all.
    if (decl.keepsAuditWhen) {
      const field = headerFields(decl).find((f) => f.key === decl.keepsAuditWhen!.when.field);
      expect(field?.readOnly, `${decl.type} keeps its audit by ${decl.keepsAuditWhen.when.field}`).toBe(true);
      if (field?.options) for (const value of decl.keepsAuditWhen.when.values) expect(field.options.map((o) => o.value)).toContain(value);
      expect(errorCatalogue[decl.keepsAuditWhen.refusal]).toBeDefined();
      expect(decl.actions).toContain('abandonAudit');
    }
    if (decl.materialTag) {
      expect(MaterialTag).toContain(decl.materialTag.tag);
      expect(lineKindOf(decl)).toBe('material');
      expect(errorCatalogue[decl.materialTag.refusal]).toBeDefined();
    }
    for (const field of [...headerFields(decl), ...lineFields(decl)]) {
      if (field.required) expect(errorCatalogue[field.required], `${field.key} message`).toBeDefined();
      if (field.switch) expect(CONFIG_KEYS.has(field.switch)).toBe(true);
      if (field.offRefusal) expect(field.switch && errorCatalogue[field.offRefusal], `${field.key} off refusal`).toBeTruthy();
      if (field.kind === 'enum') expect(field.options?.length).toBeGreaterThan(0);
    }
    if (decl.stock === 'transfer') expect(header.has('targetWarehouseId')).toBe(true);
    const direction = LINE_DIRECTION[decl.stock];
    if (direction) expect(lines.has(direction.field), direction.field).toBe(true);
    if (decl.pairedLines) {
      // Both sides are values of a line field of the type, and they go opposite ways.
      const { field, taking, twin } = decl.pairedLines;
      const values = lineFields(decl).find((f) => f.key === field)?.options?.map((o) => o.value);
      expect(values).toEqual(expect.arrayContaining([taking, twin]));
      expect(lineDirection(decl, { [field]: taking })).not.toBe(lineDirection(decl, { [field]: twin }));
    }
    if (decl.stockWhen) expect(header.has(decl.stockWhen.field)).toBe(true);
    // Every type that moves stock says how each direction it moves is valued, and nothing it does not move.
    expect(Object.keys(decl.valuation ?? {}).sort(), 'valuation sides').toEqual([...STOCK_SIDES[decl.stock]].sort());
    if (decl.valuation?.in) expect(InboundCost).toContain(decl.valuation.in);
    if (decl.valuation?.out) expect(OutboundCost).toContain(decl.valuation.out);
    // At the source's cost needs a source that moves stock the other way; at what went out needs an outbound side.
    for (const side of ['in', 'out'] as const) {
      if (decl.valuation?.[side] !== 'source') continue;
      expect(decl.sources.length, 'a source to take the cost from').toBeGreaterThan(0);
      for (const source of decl.sources) expect(STOCK_SIDES[billType(source.type)!.stock], source.type).toContain(side === 'in' ? 'out' : 'in');
    }
    if (decl.valuation?.in === 'taken') expect(STOCK_SIDES[decl.stock]).toContain('out');
    // At the work in progress of the source: every line comes from a bill that holds work, not stock (an order).
    if (decl.valuation?.in === 'workInProgress') {
      expect(decl.sourceRequired).toBe(true);
      for (const source of decl.sources) expect(billType(source.type)!.stock, source.type).toBe('none');
    }
    if (decl.totalsOf) expect(lines.has(decl.totalsOf.field), `totalsOf ${decl.totalsOf.field}`).toBe(true);
    // A workbook has no column for a source line: a type whose lines must come from one is not imported.
    if (decl.sourceRequired) expect(decl.actions).not.toContain('import');
    expect(billButtons(decl).every((b) => b.code.startsWith(`${decl.area}_${decl.route}_`))).toBe(true);
  });

  it('derives the save payload from the declaration: required fields, at least one line', () => {
    const schema = billCreateSchema(billType('PurchaseOrder')!);
    expect(schema.safeParse({ billDate: '2026-11-24', supplierId: 1, lines: [{ materialId: 1, number: 2 }] }).success).toBe(true);
    const noLines = schema.safeParse({ billDate: '2026-11-24', supplierId: 1, lines: [] });
    expect(noLines.error?.issues[0].message).toBe('BillItemsEmpty');
    const noSupplier = schema.safeParse({ billDate: '2026-11-24', lines: [{ materialId: 1, number: 2 }] });
    expect(noSupplier.error?.issues[0]).toMatchObject({ path: ['supplierId'], message: billType('PurchaseOrder')!.header.find((f) => f.key === 'supplierId')!.required });
    expect(schema.safeParse({ billDate: '2026-11-24', supplierId: 'x', lines: [{ materialId: 1, number: 2 }] }).error?.issues[0].message).toMatch(/^Invalid input/);
    const zero = schema.safeParse({ billDate: '2026-11-24', supplierId: 1, lines: [{ materialId: 1, number: 0 }] });
    expect(zero.error?.issues[0].message).toBe('NumberMustGreaterThanZero');
    // A stock check may count nothing.
    const check = billCreateSchema(billType('StockCheck')!);
    expect(check.safeParse({ billDate: '2026-11-24', warehouseId: 1, lines: [{ materialId: 1, number: 0 }] }).success).toBe(true);
  });

  it('refuses a required field left out with its own catalogued message, for every type', () => {
    for (const decl of BILL_TYPES) {
      const issues = billCreateSchema(decl).safeParse({ lines: [] }).error?.issues ?? [];
      for (const field of [...headerFields(decl)].filter((f) => f.required && !f.readOnly && f.key !== 'billCode')) {
        expect(issues.find((issue) => issue.path[0] === field.key)?.message, `${decl.type} ${field.key}`).toBe(field.required);
      }
    }
  });

  it('applies the refund types: what moves stock, money and the source progress, what pushes on', () => {
    const rule = (type: string) => ({
      stock: meets(billType('SaleRefund')!.stockWhen, { refundType: type }),
      money: meets(billType('SaleRefund')!.settlementWhen, { refundType: type }),
      goodsBack: meets(billType('SaleRefund')!.sources[0].drivesWhen, { refundType: type }),
      invoice: meets(REFUND_RULES.money, { refundType: type }),
      exchange: meets(REFUND_RULES.exchange, { refundType: type }),
    });
    expect(Object.fromEntries(RefundType.map((type) => [type, rule(type)]))).toEqual({
      ReturnsRefunds: { stock: true, money: true, goodsBack: true, invoice: true, exchange: false },
      Exchange: { stock: false, money: false, goodsBack: true, invoice: false, exchange: true },
      OnlyRefund: { stock: false, money: true, goodsBack: false, invoice: true, exchange: false },
    });
    // Both refund types read the same rules.
    for (const type of ['PurchaseRefund', 'SaleRefund']) {
      const decl = billType(type)!;
      expect([decl.stockWhen, decl.settlementWhen, decl.sources[0].drivesWhen]).toEqual([REFUND_RULES.stock, REFUND_RULES.money, REFUND_RULES.goodsBack]);
    }
  });

  it('pushes only exchange refunds on to the exchange bills, whose goods go out and come back both ways', () => {
    for (const [type, refund] of [['PurchaseExchange', 'PurchaseRefund'], ['SaleExchange', 'SaleRefund']]) {
      const decl = billType(type)!;
      expect(decl.sources).toEqual([expect.objectContaining({ type: refund, drives: 'exchange', onlyWhen: REFUND_RULES.exchange, onlyWhenRefusal: 'OnlyExchangeBillCanPushExchange' })]);
      expect(downstreamTypes(refund).map((d) => d.type)).toContain(type);
    }
    // The goods exchanged go back the way they came: out to the supplier, in from the customer.
    expect(lineDirection(billType('PurchaseExchange')!, { exchangeType: billType('PurchaseExchange')!.pairedLines!.taking })).toBe('out');
    expect(lineDirection(billType('SaleExchange')!, { exchangeType: billType('SaleExchange')!.pairedLines!.taking })).toBe('in');
  });

  it('counts an invoice of a refund negative: the sources of invoices are negative exactly when their settlement is', () => {
    const invoices = BILL_TYPES.filter((d) => d.area === 'finance' && d.sources.some((s) => s.drives === 'invoice'));
    expect(invoices.length).toBeGreaterThan(0);
    for (const source of invoices.flatMap((d) => d.sources)) expect([source.type, source.negative === true]).toEqual([source.type, billType(source.type)!.settlement?.sign === -1]);
  });

  it('knows which types a source feeds', () => {
    expect(downstreamTypes('PurchaseOrder').map((d) => d.type)).toEqual(['PurchaseInstock', 'IncomingInspection']);
    expect(downstreamTypes('SaleOrder').map((d) => d.type).sort()).toEqual(['MrpPlan', 'ProductionOrder', 'SaleOutstock', 'SaleShip', 'ShipmentInspection']);
  });

  it('lets a bill wait only for an inspection of the lines it takes', () => {
    const gated = BILL_TYPES.flatMap((decl) => decl.sources.filter((s) => s.inspectedBy).map((s) => ({ decl, source: s })));
    expect(gated.map((g) => `${g.decl.type}<${g.source.type}`).sort()).toEqual(['OutsourcingInstock<OutsourcingOrder', 'ProductionInstock<ProductionOrder', 'PurchaseInstock<PurchaseOrder', 'SaleOutstock<SaleOrder', 'SaleOutstock<SaleShip']);
    for (const { decl, source } of gated) {
      const inspection = billType(source.inspectedBy!);
      // An inspection type, pushed down from the same source lines, that takes nothing of what the bill may take.
      expect(inspection?.inspection, `${decl.type} waits for ${source.inspectedBy}`).toBeDefined();
      const inspected = inspection!.sources.find((s) => s.type === source.type);
      expect(inspected, `${source.inspectedBy} inspects ${source.type}`).toBeDefined();
      expect(inspected!.apart).toBe(true);
      expect(JSON.stringify(inspected!.fromLines ?? null)).toBe(JSON.stringify(source.fromLines ?? null));
    }
  });
});

describe('decimal arithmetic and line amounts', () => {
  it('adds exactly what floating point cannot', () => {
    expect(microText(toMicro(0.1) + toMicro(0.2))).toBe('0.300000');
    expect(microText(toMicro('-1.0000005'))).toBe('-1.000001');
    expect(microText(roundTo(toMicro('2.345'), 2))).toBe('2.350000');
    expect(microText(roundTo(toMicro('-2.345'), 2))).toBe('-2.350000');
  });

  it('computes amounts with tax and discount only when their switches are on', () => {
    const rules = { numberDigits: 3, amountDigits: 2, tax: true, discount: true };
    const a = lineAmounts({ number: 3, unitPrice: 9.99, taxRate: 13, discountRate: 10 }, rules);
    expect(microText(a.priceTotal)).toBe('26.970000'); // 29.97 × 0.9 = 26.973
    expect(microText(a.taxPriceTotal)).toBe('30.480000'); // 26.97 × 1.13 = 30.4761
    expect(microText(a.taxUnitPrice)).toBe('11.290000'); // 9.99 × 1.13 = 11.2887
    const off = lineAmounts({ number: 3, unitPrice: 9.99, taxRate: 13, discountRate: 10 }, { ...rules, tax: false, discount: false });
    expect(microText(off.priceTotal)).toBe('29.970000');
    expect(microText(off.taxPriceTotal)).toBe('29.970000');
  });
});
