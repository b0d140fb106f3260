import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import type { PrinterRow } from '@p8/contract/office';
import type { ReceiptLine } from '@p8/contract/print/receipt';
import { auditLog } from '../src/db/schema/index.ts';
import { feieProvider, unconfiguredProvider } from '../src/core/printer-providers.ts';
import { loadConfig } from '../src/config.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords } from './bill-fixtures.ts';
import { staffWith } from './system-fixtures.ts';

/*
 * A bill's receipt sent to a cloud printer through the Feie provider, against a fake Feie API started here
 * (nothing calls the internet): the request is signed as Feie wants, carries the receipt in Feie's markup, and
 * the print is counted and audited only once the provider took it; Feie's refusals come back catalogued.
 */

const ORDER = billType('PurchaseOrder')!;
const CLOUD = `${billApiPath(ORDER)}/print/cloud`;
const USER = 'feie-user@example.com';
const UKEY = 'UKEY-123';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let fake: Server;
let url: string;
const received: Array<Record<string, string>> = [];

/** Feie's answers, by the printer's serial number. */
const answers: Record<string, { status?: number; body: unknown }> = {
  'SN-OK': { body: { ret: 0, msg: 'ok', data: '816501678_20261128_1', serverExecutedTime: 4 } },
  'SN-BAD': { body: { ret: 1002, msg: '参数错误 : 打印机编号错误' } },
  'SN-OFF': { body: { ret: 1003, msg: '打印机设备离线' } },
  'SN-PAPER': { body: { ret: 1004, msg: '打印机缺纸' } },
  'SN-500': { status: 502, body: 'bad gateway' },
};

beforeAll(async () => {
  fake = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(text));
      received.push(form);
      const answer = answers[form.sn] ?? { body: { ret: 1001, msg: 'unknown' } };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/Api/Open/`;
  ctx = await startTestApp();
  ctx.app.printerProviders.register(feieProvider({ url, user: USER, ukey: UKEY, timeoutMs: 3000 }));
  a = await seedTenant(ctx.database, 'Cloud');
  tokenA = await login(ctx.app, a.name, a.password);
});
afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

const lines: ReceiptLine[] = [
  { type: 'text', text: '采购订单', align: 'center', bold: true, big: true },
  { type: 'rule' },
  { type: 'text', text: 'M-1 螺丝 x 12', align: 'left', bold: false, big: false },
  { type: 'qrcode', text: 'CGDD-1' },
];

describe(`cloud receipt printers (${TEST_DB})`, () => {
  it("reads Feie's account from the configuration (unset: printing says it is not configured)", () => {
    expect(loadConfig().printers.feie).toMatchObject({ url: 'https://api.feieyun.cn/Api/Open/' });
    expect(loadConfig({ printers: { feie: { url, user: USER, ukey: UKEY } } }).printers.feie.user).toBe(USER);
  });

  it("sends a bill's receipt to a Feie printer, signed, in its markup, the copies the printer asks; counts and audits it once taken", async () => {
    const records = await createBillRecords(caller(ctx, tokenA, a.adminId));
    const order = (await call<{ id: number; billCode: string }>(ctx.app, 'POST', billApiPath(ORDER), { token: tokenA, body: billPayload(ORDER, records) })).body.data;
    const addPrinter = async (sn: string, provider = 'feie') =>
      (await call<PrinterRow>(ctx.app, 'POST', '/api/admin/system/printer', { token: tokenA, body: { name: `Till ${sn}`, provider, sn, printerKey: 'key-1', copies: 2 } })).body.data;
    const ok = await addPrinter('SN-OK');
    const choices = (await call<Array<{ id: number; name: string }>>(ctx.app, 'GET', `${billApiPath(ORDER)}/print/printers`, { token: tokenA })).body.data;
    expect(choices.map((p) => p.id)).toContain(ok.id);
    expect(JSON.stringify(choices)).not.toContain('key-1');

    received.length = 0;
    const res = await call<{ printCount: number }>(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: ok.id, paper: 'Receipt58', lines } });
    expect(res.body).toMatchObject({ status: 0, data: { printCount: 1 } });
    expect(received).toHaveLength(1);
    const [sent] = received;
    expect(sent).toMatchObject({ user: USER, apiname: 'Open_printMsg', sn: 'SN-OK', times: '2' });
    expect(sent.sig).toBe(createHash('sha1').update(`${USER}${UKEY}${sent.stime}`).digest('hex'));
    expect(sent.content).toBe(`<C><B><BOLD>采购订单</BOLD></B></C><BR>${'-'.repeat(32)}<BR>M-1 螺丝 x 12<BR><C><QR>CGDD-1</QR></C><CUT>`);
    const audited = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'PurchaseOrder'), eq(auditLog.action, 'print'), eq(auditLog.entityId, String(order.id)))));
    expect(audited.map((e) => e.detail)).toEqual([{ billType: 'PurchaseOrder', billCode: order.billCode, templateId: null, output: 'cloud', printerId: ok.id }]);

    // Feie's refusals, catalogued; nothing counted.
    for (const [sn, key] of [
      ['SN-BAD', 'PrinterSnOrKeyError'],
      ['SN-OFF', 'PrinterOffline'],
      ['SN-PAPER', 'PrinterOutOfPaper'],
      ['SN-500', 'PrinterApiError'],
    ] as const) {
      const p = await addPrinter(sn);
      expect((await call(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: p.id, paper: 'Receipt80', lines } })).body.message, sn).toBe(key);
    }
    // A service that does not answer at all.
    ctx.app.printerProviders.register(feieProvider({ url: 'http://127.0.0.1:9/Api/Open/', user: USER, ukey: UKEY, timeoutMs: 1000 }));
    expect((await call(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: ok.id, paper: 'Receipt80', lines } })).body.message).toBe('PrinterApiError');
    ctx.app.printerProviders.register(feieProvider({ url, user: USER, ukey: UKEY, timeoutMs: 3000 }));
    // A provider whose account is not configured says so.
    const yly = await addPrinter('YLY-1', 'yilianyun');
    ctx.app.printerProviders.register(unconfiguredProvider('yilianyun'));
    expect((await call(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: yly.id, paper: 'Receipt58', lines } })).body.message).toBe('PrinterProviderNotConfigured');
    expect((await call<{ printCount: number }>(ctx.app, 'GET', `${billApiPath(ORDER)}/${order.id}`, { token: tokenA })).body.data.printCount).toBe(1);

    // Refused before anything is sent: a printer of nobody, lines that are not a receipt, no print button, a bill out of reach.
    received.length = 0;
    expect((await call(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: 999999, paper: 'Receipt58', lines } })).body.message).toBe('PrinterNotExist');
    expect((await call(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: ok.id, paper: 'A4', lines } })).body.status).not.toBe(0);
    expect((await call(ctx.app, 'POST', CLOUD, { token: tokenA, body: { id: order.id, printerId: ok.id, paper: 'Receipt58', lines: [{ type: 'barcode', text: '条码' }] } })).body.status).not.toBe(0);
    const plain = await staffWith(ctx, a, { codes: ['purchase_order'] });
    expect((await call(ctx.app, 'POST', CLOUD, { token: plain.token, body: { id: order.id, printerId: ok.id, paper: 'Receipt58', lines } })).body).toMatchObject({ status: 40300, additional: 'purchase_order_print' });
    const self = await staffWith(ctx, a, { codes: ['purchase_order', 'purchase_order_print'], dataScope: 'Self' });
    expect((await call(ctx.app, 'POST', CLOUD, { token: self.token, body: { id: order.id, printerId: ok.id, paper: 'Receipt58', lines } })).body.message).toBe('BillNotExist');
    expect(received).toHaveLength(0);
  });
});
