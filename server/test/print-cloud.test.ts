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
import { feieProvider, unconfiguredProvider, yilianyunProvider } from '../src/core/printer-providers.ts';
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
const CLIENT_ID = '1012345678';
const CLIENT_SECRET = 'yly-secret-abc';

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
    expect(loadConfig().printers.yilianyun).toMatchObject({ url: 'https://open-api.10ss.net/', clientId: '', clientSecret: '' });
    const yilianyun = { url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
    expect(loadConfig({ printers: { feie: { url, user: USER, ukey: UKEY }, yilianyun } }).printers.feie.user).toBe(USER);
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

/*
 * Yilianyun (易联云), against a fake of its open API on 127.0.0.1: every call signed md5(client_id + timestamp +
 * client_secret) with a UUID4 id; the application's token from oauth/oauth, asked again once when the service
 * says it expired; the printer authorised (addprinter with its terminal number and key) the first time, its state
 * read, then print/index with the receipt in Yilianyun's markup; its numbered errors catalogued.
 */
describe(`Yilianyun cloud printers (${TEST_DB})`, () => {
  let yly: Server;
  let ylyUrl: string;
  const calls: Array<{ path: string; form: Record<string, string> }> = [];
  let tokens = 0;
  /** The token the fake accepts; an expired one is answered error 18. */
  let live = '';
  const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  /** What the fake answers for a terminal, by call. */
  const printers: Record<string, { add?: [string, string]; state?: number; print?: [string, string] }> = {
    'YLY-OK': { state: 1 },
    'YLY-KEY': { add: ['35', 'machine_code或msign错误'] },
    'YLY-BOUND': { add: ['17', '该打印机已被他人绑定'] },
    'YLY-OFF': { state: 0 },
    'YLY-PAPER': { state: 2 },
    'YLY-BAD': { state: 1, print: ['8', '打印机信息错误,参数有误'] },
    'YLY-ODD': { state: 1, print: ['45', '系统错误！请立即反馈'] },
  };

  beforeAll(async () => {
    yly = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(text));
        const path = req.url!.replace(/^\/+/, '');
        calls.push({ path, form });
        const answer = (error: string, description: string, body?: unknown) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error, error_description: description, ...(body === undefined ? {} : { body }) }));
        };
        if (path === 'fail/print/index' || path.startsWith('fail/')) {
          res.writeHead(500);
          res.end('oops');
          return;
        }
        if (form.sign !== createHash('md5').update(`${form.client_id}${form.timestamp}${CLIENT_SECRET}`).digest('hex')) return answer('11', 'sign验证失败');
        if (path === 'oauth/oauth') {
          tokens++;
          live = `token-${tokens}`;
          return answer('0', 'success', { access_token: live, refresh_token: 'r', machine_code: '', expires_in: 2592000, scope: 'all' });
        }
        if (form.access_token !== live) return answer('18', 'access_token已过期,请刷新access_token或者重新授权');
        const p = printers[form.machine_code] ?? {};
        if (path === 'printer/addprinter') return p.add ? answer(...p.add) : answer('0', 'success');
        if (path === 'printer/getprintstatus') return answer('0', 'success', { state: String(p.state ?? 1) });
        if (path === 'print/index') return p.print ? answer(...p.print) : answer('0', 'success', { id: '137550437', origin_id: form.origin_id });
        return answer('12', '缺少必要参数');
      });
    });
    await new Promise<void>((resolve) => yly.listen(0, '127.0.0.1', resolve));
    ylyUrl = `http://127.0.0.1:${(yly.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    ctx.app.printerProviders.register(unconfiguredProvider('yilianyun'));
    await new Promise((resolve) => yly?.close(resolve));
  });

  it("sends a bill's receipt to a Yilianyun printer: token, authorisation, state, then the print, signed and in its markup; refusals catalogued", async () => {
    ctx.app.printerProviders.register(yilianyunProvider({ url: ylyUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, timeoutMs: 3000 }));
    const b = await seedTenant(ctx.database, 'Yly');
    const tokenB = await login(ctx.app, b.name, b.password);
    const records = await createBillRecords(caller(ctx, tokenB, b.adminId));
    const order = (await call<{ id: number; billCode: string }>(ctx.app, 'POST', billApiPath(ORDER), { token: tokenB, body: billPayload(ORDER, records) })).body.data;
    const addPrinter = async (sn: string) =>
      (await call<PrinterRow>(ctx.app, 'POST', '/api/admin/system/printer', { token: tokenB, body: { name: `Yly ${sn}`, provider: 'yilianyun', sn, printerKey: `msign-${sn}`, copies: 3 } })).body.data;
    const print = async (printerId: number) => (await call<{ printCount: number }>(ctx.app, 'POST', CLOUD, { token: tokenB, body: { id: order.id, printerId, paper: 'Receipt58', lines } })).body;

    const ok = await addPrinter('YLY-OK');
    calls.length = 0;
    expect(await print(ok.id)).toMatchObject({ status: 0, data: { printCount: 1 } });
    expect(calls.map((c) => c.path)).toEqual(['oauth/oauth', 'printer/addprinter', 'printer/getprintstatus', 'print/index']);
    for (const { form } of calls) {
      expect(form.client_id).toBe(CLIENT_ID);
      expect(form.timestamp).toMatch(/^\d{10}$/);
      expect(form.sign).toBe(createHash('md5').update(`${CLIENT_ID}${form.timestamp}${CLIENT_SECRET}`).digest('hex'));
      expect(form.id).toMatch(UUID4);
    }
    expect(new Set(calls.map((c) => c.form.id)).size).toBe(4);
    expect(calls[0].form).toMatchObject({ grant_type: 'client_credentials', scope: 'all' });
    expect(calls[1].form).toMatchObject({ access_token: 'token-1', machine_code: 'YLY-OK', msign: 'msign-YLY-OK' });
    const sent = calls[3].form;
    expect(sent).toMatchObject({ access_token: 'token-1', machine_code: 'YLY-OK' });
    expect(sent.content).toBe(`<MN>3</MN><center><FS2><FB>采购订单</FB></FS2></center>\n${'-'.repeat(32)}\nM-1 螺丝 x 12\n<QR>CGDD-1</QR>\n`);
    const audited = await ctx.database.withTenant(b.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.entity, 'PurchaseOrder'), eq(auditLog.action, 'print'), eq(auditLog.entityId, String(order.id)))));
    expect(audited.map((e) => e.detail)).toEqual([{ billType: 'PurchaseOrder', billCode: order.billCode, templateId: null, output: 'cloud', printerId: ok.id }]);

    // The second print: the token kept, the printer already authorised.
    calls.length = 0;
    expect((await print(ok.id)).data).toEqual({ printCount: 2 });
    expect(calls.map((c) => c.path)).toEqual(['printer/getprintstatus', 'print/index']);
    // A token the service no longer takes (expired early): asked again once, and the print goes through.
    live = 'revoked';
    calls.length = 0;
    expect((await print(ok.id)).data).toEqual({ printCount: 3 });
    expect(calls.map((c) => c.path)).toEqual(['printer/getprintstatus', 'oauth/oauth', 'printer/getprintstatus', 'print/index']);

    // Its refusals, catalogued; nothing counted.
    for (const [sn, key] of [
      ['YLY-KEY', 'PrinterSnOrKeyError'],
      ['YLY-BOUND', 'PrinterAlreadyBound'],
      ['YLY-OFF', 'PrinterOffline'],
      ['YLY-PAPER', 'PrinterOutOfPaper'],
      ['YLY-BAD', 'PrinterSnOrKeyError'],
      ['YLY-ODD', 'PrinterApiError'],
    ] as const) {
      const p = await addPrinter(sn);
      expect((await print(p.id)).message, sn).toBe(key);
    }
    // The test print of the printers screen goes the same way.
    expect((await call(ctx.app, 'POST', '/api/admin/system/printer/test', { token: tokenB, body: { id: ok.id } })).body.status).toBe(0);
    expect(calls.at(-1)!.form.content).toBe(`<MN>3</MN><center><FB>Yly YLY-OK</FB></center>\n<center>OK</center>\n`);
    // A wrong application secret (our configuration), an HTTP error, a service that does not answer.
    ctx.app.printerProviders.register(yilianyunProvider({ url: ylyUrl, clientId: CLIENT_ID, clientSecret: 'wrong', timeoutMs: 3000 }));
    expect((await print(ok.id)).message).toBe('PrinterApiError');
    ctx.app.printerProviders.register(yilianyunProvider({ url: `${ylyUrl}fail/`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, timeoutMs: 3000 }));
    expect((await print(ok.id)).message).toBe('PrinterApiError');
    ctx.app.printerProviders.register(yilianyunProvider({ url: 'http://127.0.0.1:9/', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, timeoutMs: 1000 }));
    expect((await print(ok.id)).message).toBe('PrinterApiError');
    expect((await call<{ printCount: number }>(ctx.app, 'GET', `${billApiPath(ORDER)}/${order.id}`, { token: tokenB })).body.data.printCount).toBe(3);
  });
});

