import type { WebSocket } from 'ws';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgreementRow, PlatformConfigView, SlotAvailability, SwiperRow, TimeSettings, TimeSlotRow } from '@p8/contract/base';
import type { ServiceMessageRow, ServiceOrderCounts, ServiceOrderDetail, ServiceOrderRow, WsServerMessage } from '@p8/contract/service';
import { message } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, setAdmin, startTestApp, TEST_DB, uniquePhone, type TestContext, type TestTenant } from './harness.ts';
import { grant } from './office-fixtures.ts';
import { auditEntries, staffWith } from './system-fixtures.ts';

/*
 * Base content and service orders: swiper, business hours and slots, the platform's public config, the
 * order status flow with its refusals, slot capacity under parallel orders, new-order notices, and the chat
 * (HTTP and the live WebSocket /api/ws, reconnect with missed messages, tenant isolation).
 */

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
let worker: { adminId: number; token: string };
let plainToken: string;

const SERVICE = '/api/admin/service';

/** A day at least `days` ahead that is a weekday (open by default). */
function weekdayAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const ok = <T>(res: { body: { status: number; message: string; data: T } }): T => {
  if (res.body.status !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data;
};

beforeAll(async () => {
  ctx = await startTestApp();
  // The first tenant is the platform tenant (PLATFORM_TENANT_ID defaults to 1).
  a = await seedTenant(ctx.database, 'SvcA');
  b = await seedTenant(ctx.database, 'SvcB');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
  const w = await seedStaff(ctx.database, a);
  await grant(ctx, a, w.roleId, ['service_myOrder_start', 'service_myOrder_complete', 'service_myOrder_message']);
  worker = { adminId: w.adminId, token: await login(ctx.app, w.name, w.password) };
  const plain = await seedStaff(ctx.database, a);
  plainToken = await login(ctx.app, plain.name, plain.password);
});
afterAll(() => ctx.close());

describe(`base content (${TEST_DB})`, () => {
  it('keeps swiper slides in their order, validates image and link, and refuses another tenant', async () => {
    const first = ok(await call<SwiperRow>(ctx.app, 'POST', '/api/admin/base/swiper', { token: tokenA, body: { title: 'Spring', image: '/api/upload/img/a.png', link: '/pages/promo', sort: 2 } }));
    ok(await call(ctx.app, 'POST', '/api/admin/base/swiper', { token: tokenA, body: { title: 'Summer', image: 'https://cdn.example.com/b.png', sort: 1 } }));
    const list = ok(await call<SwiperRow[]>(ctx.app, 'GET', '/api/admin/base/swiper', { token: tokenA }));
    expect(list.map((s) => s.title)).toEqual(['Summer', 'Spring']);
    expect((await call(ctx.app, 'POST', '/api/admin/base/swiper', { token: tokenA, body: { title: 'x', image: 'javascript:alert(1)' } })).body.message).toBe('PleaseUploadImage');
    expect((await call(ctx.app, 'POST', '/api/admin/base/swiper', { token: tokenA, body: { title: 'x', image: '/a.png', link: 'javascript:alert(1)' } })).body.message).toBe('LinkFormatError');
    expect((await call(ctx.app, 'GET', `/api/admin/base/swiper/${first.id}`, { token: tokenB })).body.message).toBe('DataNotExist');
    expect((await call(ctx.app, 'PUT', '/api/admin/base/swiper/enable', { token: plainToken, body: { ids: [first.id], enabled: false } })).body.status).toBe(40300);
    ok(await call(ctx.app, 'PUT', '/api/admin/base/swiper/enable', { token: tokenA, body: { ids: [first.id], enabled: false } }));
    expect(ok(await call<SwiperRow>(ctx.app, 'GET', `/api/admin/base/swiper/${first.id}`, { token: tokenA })).enabled).toBe(false);
  });

  it('keeps the two agreements, sanitising their HTML on the server', async () => {
    const defaults = ok(await call<AgreementRow[]>(ctx.app, 'GET', '/api/admin/base/agreement', { token: tokenA }));
    expect(defaults.map((d) => [d.kind, d.content, d.updatedAt])).toEqual([
      ['user', '', null],
      ['privacy', '', null],
    ]);
    const html = '<h2>隐私政策</h2><p onclick="steal()">我们<strong>保护</strong>您的数据<script>alert(1)</script><a href="javascript:alert(1)">x</a></p>';
    const saved = ok(await call<AgreementRow>(ctx.app, 'PUT', '/api/admin/base/agreement', { token: tokenA, body: { kind: 'privacy', title: '隐私政策', content: html } }));
    expect(saved.content).toContain('<strong>保护</strong>');
    expect(saved.content).not.toMatch(/script|onclick|javascript:/);
    expect(saved.updatedByName).not.toBe('');
    const privacy = (list: AgreementRow[]) => list.find((x) => x.kind === 'privacy')!;
    expect(privacy(ok(await call<AgreementRow[]>(ctx.app, 'GET', '/api/admin/base/agreement', { token: tokenA }))).content).toBe(saved.content);
    expect(privacy(ok(await call<AgreementRow[]>(ctx.app, 'GET', '/api/admin/base/agreement', { token: tokenB }))).content).toBe('');
    expect((await call(ctx.app, 'PUT', '/api/admin/base/agreement', { token: plainToken, body: { kind: 'user', title: 'x', content: '' } })).body.status).toBe(40300);
    expect((await call(ctx.app, 'PUT', '/api/admin/base/agreement', { token: tokenA, body: { kind: 'other', title: 'x', content: '' } })).body.status).toBe(40001);
  });

  it('keeps business hours and non-overlapping slots, and offers only the slots of an open day', async () => {
    const settings = ok(await call<TimeSettings>(ctx.app, 'GET', '/api/admin/base/time', { token: tokenA }));
    expect(settings.days).toHaveLength(7);
    expect(settings.days[6]).toMatchObject({ weekday: 7, open: false });
    const morning = ok(await call<TimeSlotRow>(ctx.app, 'POST', '/api/admin/base/time/slot', { token: tokenA, body: { start: '09:00', end: '11:00', capacity: 2 } }));
    expect((await call(ctx.app, 'POST', '/api/admin/base/time/slot', { token: tokenA, body: { start: '10:30', end: '12:00', capacity: 2 } })).body.message).toBe('TimeSlotOverlap');
    expect((await call(ctx.app, 'POST', '/api/admin/base/time/slot', { token: tokenA, body: { start: '12:00', end: '11:00', capacity: 2 } })).body.message).toBe('StartTimeMustBeforeEndTime');
    expect((await call(ctx.app, 'POST', '/api/admin/base/time/slot', { token: tokenA, body: { start: '9:00', end: '11:00', capacity: 2 } })).body.message).toBe('TimeFormatError');
    ok(await call(ctx.app, 'POST', '/api/admin/base/time/slot', { token: tokenA, body: { start: '11:00', end: '12:00', capacity: 1 } }));
    // An evening slot outside the 09:00–18:00 hours is kept but never offered.
    ok(await call(ctx.app, 'POST', '/api/admin/base/time/slot', { token: tokenA, body: { start: '19:00', end: '20:00', capacity: 1 } }));
    const day = weekdayAhead(3);
    const available = ok(await call<SlotAvailability>(ctx.app, 'GET', `/api/admin/base/time/available?date=${day}`, { token: tokenA }));
    expect(available.slots.map((s) => `${s.start}-${s.end}`)).toEqual(['09:00-11:00', '11:00-12:00']);
    expect(available.slots[0]).toMatchObject({ id: morning.id, capacity: 2, booked: 0, left: 2 });
    // Close every day: nothing is offered.
    const closed = settings.days.map((d) => ({ ...d, open: false }));
    ok(await call(ctx.app, 'PUT', '/api/admin/base/time/hours', { token: tokenA, body: { days: closed } }));
    expect(ok(await call<SlotAvailability>(ctx.app, 'GET', `/api/admin/base/time/available?date=${day}`, { token: tokenA })).slots).toEqual([]);
    ok(await call(ctx.app, 'PUT', '/api/admin/base/time/hours', { token: tokenA, body: { days: settings.days } }));
    expect((await call(ctx.app, 'GET', '/api/admin/base/time/available?date=2026-02-30', { token: tokenA })).body.message).toBe('DateOutOfRange');
  });

  it('lets only the platform administrator change the public system config, which the login page reads', async () => {
    const mine = ok(await call<PlatformConfigView>(ctx.app, 'GET', '/api/admin/base/config', { token: tokenA }));
    expect(mine.editable).toBe(true);
    expect(ok(await call<PlatformConfigView>(ctx.app, 'GET', '/api/admin/base/config', { token: tokenB })).editable).toBe(false);
    const { editable: _e, updatedAt: _u, ...values } = mine;
    expect((await call(ctx.app, 'PUT', '/api/admin/base/config', { token: tokenB, body: { ...values, system_title: 'Hijacked' } })).body.message).toBe('OnlyPlatformAdminCanOperate');
    ok(await call(ctx.app, 'PUT', '/api/admin/base/config', { token: tokenA, body: { ...values, system_title: '服务平台', icp: '沪ICP备00000000号', openAppointment: true } }));
    const publicConfig = ok(await call<Record<string, unknown>>(ctx.app, 'GET', '/api/base/system/config'));
    expect(publicConfig).toMatchObject({ system_title: '服务平台', title: '服务平台', name: '服务平台', icp: '沪ICP备00000000号', openAppointment: true });
  });
});

const newOrder = (overrides: Record<string, unknown> = {}) => ({
  serviceName: '空调清洗',
  customerName: '张三',
  customerPhone: uniquePhone(),
  address: '上海市浦东新区世纪大道100号',
  amount: 120,
  ...overrides,
});

async function place(body = newOrder(), token = tokenA) {
  return ok(await call<ServiceOrderRow>(ctx.app, 'POST', `${SERVICE}/proxyOrder`, { token, body }));
}

describe(`service orders (${TEST_DB})`, () => {
  let slotId: number;
  let day: string;
  beforeAll(async () => {
    const settings = ok(await call<TimeSettings>(ctx.app, 'GET', '/api/admin/base/time', { token: tokenA }));
    slotId = settings.slots.find((s) => s.start === '11:00')!.id;
    day = weekdayAhead(5);
  });

  it('moves an order through dispatch, review, service and completion, with its timeline', async () => {
    const order = await place();
    expect(order).toMatchObject({ status: 'PendingDispatch', source: 'proxy' });
    expect(order.orderNo).toMatch(/^FW\d{12}$/);
    // Not theirs, and outside their data scope (own data only): as if it did not exist.
    expect((await call(ctx.app, 'PUT', `${SERVICE}/myOrder/start`, { token: worker.token, body: { id: order.id } })).body.message).toBe('ServiceOrderNotExist');
    const dispatched = ok(await call<ServiceOrderRow>(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: order.id, staffId: worker.adminId } }));
    expect(dispatched).toMatchObject({ status: 'PendingAudit', staffId: worker.adminId });
    // Someone who sees the order but is not its assignee.
    expect((await call(ctx.app, 'PUT', `${SERVICE}/myOrder/start`, { token: tokenA, body: { id: order.id } })).body.message).toBe('OnlyAssigneeCanOperate');
    expect((await call(ctx.app, 'PUT', `${SERVICE}/myOrder/start`, { token: worker.token, body: { id: order.id } })).body.message).toBe('ServiceOrderStatusProhibit');
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/audit`, { token: tokenA, body: { id: order.id, pass: true } }));
    // Mine: the worker sees it, the administrator's "mine" does not.
    const mine = ok(await call<ServiceOrderRow[]>(ctx.app, 'GET', `${SERVICE}/myOrder`, { token: worker.token }));
    expect(mine.map((o) => o.id)).toContain(order.id);
    expect((await call(ctx.app, 'GET', `${SERVICE}/myOrder/${order.id}`, { token: tokenA })).body.message).toBe('ServiceOrderNotExist');
    ok(await call(ctx.app, 'PUT', `${SERVICE}/myOrder/start`, { token: worker.token, body: { id: order.id } }));
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/cancel`, { token: tokenA, body: { id: order.id, reason: 'late' } })).body.message).toBe('ServiceOrderStatusProhibit');
    ok(await call(ctx.app, 'PUT', `${SERVICE}/myOrder/complete`, { token: worker.token, body: { id: order.id, remark: 'done' } }));
    const detail = ok(await call<ServiceOrderDetail>(ctx.app, 'GET', `${SERVICE}/order/${order.id}`, { token: tokenA }));
    expect(detail.status).toBe('Completed');
    expect(detail.logs.map((l) => [l.action, l.toStatus])).toEqual([
      ['create', 'PendingDispatch'],
      ['dispatch', 'PendingAudit'],
      ['audit_pass', 'PendingService'],
      ['start', 'InService'],
      ['complete', 'Completed'],
    ]);
    expect(detail.completedAt).not.toBeNull();
  });

  it('approves a dispatch at once with dispatchAutoAudit, and a refused review sends the order back', async () => {
    const refused = await place();
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: refused.id, staffId: worker.adminId } }));
    const back = ok(await call<ServiceOrderRow>(ctx.app, 'PUT', `${SERVICE}/order/audit`, { token: tokenA, body: { id: refused.id, pass: false, reason: 'busy' } }));
    expect(back).toMatchObject({ status: 'PendingDispatch', staffId: null });
    ok(await call(ctx.app, 'PUT', '/api/admin/admin/tenant', { token: tokenA, body: { dispatchAutoAudit: true } }));
    try {
      const auto = ok(await call<ServiceOrderRow>(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: refused.id, staffId: worker.adminId } }));
      expect(auto.status).toBe('PendingService');
    } finally {
      ok(await call(ctx.app, 'PUT', '/api/admin/admin/tenant', { token: tokenA, body: { dispatchAutoAudit: false } }));
    }
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: refused.id, staffId: b.adminId } })).body.message).toBe('StaffNotAvailable');
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenB, body: { id: refused.id, staffId: b.adminId } })).body.message).toBe('ServiceOrderNotExist');
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: plainToken, body: { id: refused.id, staffId: worker.adminId } })).body.status).toBe(40300);
  });

  it('books an appointment slot and never beyond its capacity under parallel orders; a cancel gives the place back', async () => {
    // The 11:00 slot takes one appointment a day.
    const results = await Promise.all(Array.from({ length: 8 }, () => call<ServiceOrderRow>(ctx.app, 'POST', `${SERVICE}/proxyOrder`, { token: tokenA, body: newOrder({ appointmentDate: day, slotId }) })));
    const placed = results.filter((r) => r.body.status === 0);
    expect(placed).toHaveLength(1);
    expect(results.filter((r) => r.body.status !== 0).every((r) => r.body.message === 'TimeSlotFull')).toBe(true);
    expect(placed[0].body.data).toMatchObject({ appointmentDate: day, slotTime: '11:00-12:00' });
    const left = ok(await call<SlotAvailability>(ctx.app, 'GET', `/api/admin/base/time/available?date=${day}`, { token: tokenA }));
    expect(left.slots.find((s) => s.id === slotId)).toMatchObject({ booked: 1, left: 0 });
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/cancel`, { token: tokenA, body: { id: placed[0].body.data.id, reason: '' } })).body.message).toBe('PleaseInputCancelReason');
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/cancel`, { token: tokenA, body: { id: placed[0].body.data.id, reason: '客户改期' } }));
    const again = ok(await call<SlotAvailability>(ctx.app, 'GET', `/api/admin/base/time/available?date=${day}`, { token: tokenA }));
    expect(again.slots.find((s) => s.id === slotId)).toMatchObject({ booked: 0, left: 1 });
    await place(newOrder({ appointmentDate: day, slotId }));
    // A closed weekend day and a past day are refused; so is a half-given appointment.
    const sunday = (() => {
      const d = new Date(Date.now() + 7 * 86_400_000);
      while (d.getUTCDay() !== 0) d.setUTCDate(d.getUTCDate() + 1);
      return d.toISOString().slice(0, 10);
    })();
    expect((await call(ctx.app, 'POST', `${SERVICE}/proxyOrder`, { token: tokenA, body: newOrder({ appointmentDate: sunday, slotId }) })).body.message).toBe('TimeSlotNotAvailable');
    expect((await call(ctx.app, 'POST', `${SERVICE}/proxyOrder`, { token: tokenA, body: newOrder({ appointmentDate: '2020-01-06', slotId }) })).body.message).toBe('TimeSlotNotAvailable');
    expect((await call(ctx.app, 'POST', `${SERVICE}/proxyOrder`, { token: tokenA, body: newOrder({ appointmentDate: day }) })).body.message).toBe('PleaseSelectAppointmentTime');
  });

  it('refuses appointments while they are closed', async () => {
    const config = ok(await call<PlatformConfigView>(ctx.app, 'GET', '/api/admin/base/config', { token: tokenA }));
    const { editable: _e, updatedAt: _u, ...values } = config;
    ok(await call(ctx.app, 'PUT', '/api/admin/base/config', { token: tokenA, body: { ...values, openAppointment: false } }));
    try {
      expect((await call(ctx.app, 'POST', `${SERVICE}/proxyOrder`, { token: tokenA, body: newOrder({ appointmentDate: weekdayAhead(9), slotId }) })).body.message).toBe('AppointmentClosed');
      // An order without an appointment is still taken.
      await place();
    } finally {
      ok(await call(ctx.app, 'PUT', '/api/admin/base/config', { token: tokenA, body: { ...values, openAppointment: true } }));
    }
  });

  it('tells staff of a new order: a notice to those with newOrderNotify who may open the orders, an SMS with smsNotify', async () => {
    const phone = uniquePhone();
    // The worker wants to hear but cannot open the service orders: no notice (the SMS goes by its own switch).
    await setAdmin(ctx.database, a.tenantId, worker.adminId, { newOrderNotify: true, smsNotify: true, phone });
    const d = await seedStaff(ctx.database, a);
    await grant(ctx, a, d.roleId, ['service_order']);
    await setAdmin(ctx.database, a.tenantId, d.adminId, { newOrderNotify: true });
    const dispatcher = { adminId: d.adminId, token: await login(ctx.app, d.name, d.password) };
    const order = await place();
    const inboxOf = (adminId: number) => ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.receiverId, adminId))));
    expect((await inboxOf(worker.adminId)).some((m) => m.title.includes(order.orderNo))).toBe(false);
    const [stored] = (await inboxOf(dispatcher.adminId)).filter((m) => m.title.includes(order.orderNo));
    // From the one who placed it for the customer, stored with its notice: both languages' texts.
    expect(stored).toMatchObject({ senderId: a.adminId, title: `新服务订单 ${order.orderNo}`, notice: { key: 'serviceOrderNew' } });
    const read = await ctx.app.inject({ method: 'GET', url: '/api/admin/office/message?box=inbox&pageSize=100', headers: { authorization: `Bearer ${dispatcher.token}`, 'accept-language': 'en' } });
    expect((read.json() as { data: Array<{ title: string }> }).data.map((m) => m.title)).toContain(`New service order ${order.orderNo}`);
    expect(ctx.smsNotices).toContainEqual({ phone, template: 'newServiceOrder', params: { orderNo: order.orderNo, service: '空调清洗' } });
    // Switched off: no notice, whatever the screens.
    await setAdmin(ctx.database, a.tenantId, d.adminId, { newOrderNotify: false });
    const later = await place();
    expect((await inboxOf(dispatcher.adminId)).some((m) => m.title.includes(later.orderNo))).toBe(false);
    await setAdmin(ctx.database, a.tenantId, worker.adminId, { newOrderNotify: false, smsNotify: false });
  });

  it('tells the assignee of a dispatch and a re-dispatch in the message center, in the reader’s language', async () => {
    const order = await place();
    const inbox = async (token: string, lang: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/office/message?box=inbox&pageSize=100', headers: { authorization: `Bearer ${token}`, 'accept-language': lang } });
      return (res.json() as { data: Array<{ id: number; title: string; content: string }> }).data.filter((m) => m.title.includes(order.orderNo));
    };
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: order.id, staffId: worker.adminId } }));
    const [zh] = await inbox(worker.token, 'zh-CN');
    expect(zh.title).toBe(`派给您的服务订单 ${order.orderNo}`);
    expect(zh.content).toContain('空调清洗');
    const [en] = await inbox(worker.token, 'en');
    expect(en).toMatchObject({ id: zh.id, title: `Service order ${order.orderNo} dispatched to you` });
    expect(en.content).toContain(order.address);
    const detail = await ctx.app.inject({ method: 'GET', url: `/api/admin/office/message/${zh.id}`, headers: { authorization: `Bearer ${worker.token}`, 'accept-language': 'en' } });
    expect(detail.json().data.title).toBe(en.title);
    // Re-dispatched to someone else: they hear of it too.
    const other = await seedStaff(ctx.database, a);
    const otherToken = await login(ctx.app, other.name, other.password);
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/audit`, { token: tokenA, body: { id: order.id, pass: true } }));
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: order.id, staffId: other.adminId } }));
    expect(await inbox(otherToken, 'en')).toHaveLength(1);
  });

  it('counts orders per status and filters the list by status', async () => {
    const counts = ok(await call<ServiceOrderCounts>(ctx.app, 'GET', `${SERVICE}/order/counts`, { token: tokenA }));
    expect(counts.all).toBe(Object.entries(counts).filter(([k]) => k !== 'all').reduce((sum, [, n]) => sum + n, 0));
    expect(counts.Completed).toBeGreaterThanOrEqual(1);
    const done = await call<ServiceOrderRow[]>(ctx.app, 'GET', `${SERVICE}/order?status=Completed,Cancelled`, { token: tokenA });
    expect(done.body.data.every((o) => ['Completed', 'Cancelled'].includes(o.status))).toBe(true);
    expect((await call(ctx.app, 'GET', `${SERVICE}/order?status=Nope`, { token: tokenA })).body.message).toBe('BadRequest');
    expect(ok(await call<ServiceOrderCounts>(ctx.app, 'GET', `${SERVICE}/order/counts`, { token: tokenB })).all).toBe(0);
  });
});

/** A socket on the in-process app with the messages it received. */
async function openSocket(token?: string) {
  const socket: WebSocket = await ctx.app.injectWS('/api/ws');
  const received: WsServerMessage[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString())));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const waitFor = async (predicate: (m: WsServerMessage) => boolean, ms = 5000) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      const found = received.find(predicate);
      if (found) return found;
    }
    throw new Error(`not received; got ${JSON.stringify(received)}`);
  };
  const sendJson = (m: unknown) => socket.send(JSON.stringify(m));
  if (token) {
    sendJson({ type: 'auth', token });
    await waitFor((m) => m.type === 'ready');
  }
  return { socket, received, waitFor, closed, send: sendJson };
}

describe(`service staff (${TEST_DB})`, () => {
  it('keeps technicians with skills, areas and their current load; dispatch then offers and accepts only the enabled ones', async () => {
    // A tenant of its own: once it keeps service staff, dispatch is limited to them.
    const c = await seedTenant(ctx.database, 'SvcC');
    const token = await login(ctx.app, c.name, c.password);
    const tech = await seedStaff(ctx.database, c);
    const plain = await seedStaff(ctx.database, c);
    const url = `${SERVICE}/technician`;
    const order = await place(newOrder(), token);
    // Before any service staff: every enabled staff member can take an order.
    expect(ok(await call<Array<{ id: number }>>(ctx.app, 'GET', `${SERVICE}/staff`, { token })).map((s) => s.id)).toEqual(expect.arrayContaining([tech.adminId, plain.adminId]));
    const created = ok(await call<{ id: number }>(ctx.app, 'POST', url, { token, body: { adminId: tech.adminId, skills: ['空调', ' 空调 ', '水电'], areas: ['浦东'] } }));
    expect((await call(ctx.app, 'POST', url, { token, body: { adminId: tech.adminId } })).body.message).toBe('ServiceStaffRepeat');
    expect((await call(ctx.app, 'POST', url, { token, body: { adminId: a.adminId } })).body.message).toBe('StaffNotAvailable');
    expect((await call(ctx.app, 'POST', url, { token: plainToken, body: { adminId: tech.adminId } })).body.status).toBe(40300);
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token, body: { id: order.id, staffId: plain.adminId } })).body.message).toBe('NotServiceStaff');
    expect(ok(await call<Array<{ id: number; load: number; skills: string[] }>>(ctx.app, 'GET', `${SERVICE}/staff`, { token }))).toEqual([expect.objectContaining({ id: tech.adminId, load: 0, skills: ['空调', '水电'] })]);
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token, body: { id: order.id, staffId: tech.adminId } }));
    const [row] = ok(await call<Array<{ id: number; adminId: number; skills: string[]; areas: string[]; load: number; completed: number; enabled: boolean }>>(ctx.app, 'GET', `${url}?skill=水电`, { token }));
    expect(row).toMatchObject({ id: created.id, adminId: tech.adminId, skills: ['空调', '水电'], areas: ['浦东'], load: 1, completed: 0, enabled: true });
    expect(ok(await call<unknown[]>(ctx.app, 'GET', `${url}?area=徐汇`, { token }))).toEqual([]);
    // Disabled: no longer offered nor accepted.
    ok(await call(ctx.app, 'PUT', `${url}/enable`, { token, body: { ids: [created.id], enabled: false } }));
    expect(ok(await call<unknown[]>(ctx.app, 'GET', `${SERVICE}/staff`, { token }))).toEqual([]);
    const next = await place(newOrder(), token);
    expect((await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token, body: { id: next.id, staffId: tech.adminId } })).body.message).toBe('NotServiceStaff');
    ok(await call(ctx.app, 'PUT', url, { token, body: { id: created.id, adminId: tech.adminId, skills: ['水电'], areas: [], enabled: true } }));
    expect(ok(await call<{ skills: string[] }>(ctx.app, 'GET', `${url}/${created.id}`, { token })).skills).toEqual(['水电']);
    // Another tenant's id is not there.
    expect((await call(ctx.app, 'GET', `${url}/${created.id}`, { token: tokenA })).body.message).toBe('ServiceStaffNotExist');
    ok(await call(ctx.app, 'DELETE', url, { token, body: { ids: [created.id] } }));
    expect(ok(await call<unknown[]>(ctx.app, 'GET', url, { token }))).toEqual([]);
  });
});

describe(`chat on an order (${TEST_DB})`, () => {
  it('stores messages and delivers them live to subscribed screens of the tenant only', async () => {
    const order = await place();
    const mine = await openSocket(tokenA);
    mine.send({ type: 'subscribe', orderId: order.id, afterId: 0 });
    await mine.waitFor((m) => m.type === 'subscribed');
    // Tenant B cannot subscribe to A's order.
    const other = await openSocket(tokenB);
    other.send({ type: 'subscribe', orderId: order.id });
    expect(await other.waitFor((m) => m.type === 'error')).toMatchObject({ message: 'ServiceOrderNotExist', orderId: order.id });

    const sent = ok(await call<ServiceMessageRow>(ctx.app, 'POST', `${SERVICE}/message`, { token: tokenA, body: { orderId: order.id, content: '师傅几点到？' } }));
    const live = await mine.waitFor((m) => m.type === 'message' && m.message.id === sent.id);
    expect(live).toMatchObject({ message: { orderId: order.id, content: '师傅几点到？', senderId: a.adminId } });
    expect(other.received.some((m) => m.type === 'message')).toBe(false);
    expect((await call(ctx.app, 'POST', `${SERVICE}/message`, { token: tokenB, body: { orderId: order.id, content: 'x' } })).body.message).toBe('ServiceOrderNotExist');
    expect((await call(ctx.app, 'POST', `${SERVICE}/message`, { token: plainToken, body: { orderId: order.id, content: 'x' } })).body.status).toBe(40300);
    expect((await call(ctx.app, 'POST', `${SERVICE}/message`, { token: tokenA, body: { orderId: order.id, content: '  ' } })).body.message).toBe('PleaseInputContent');
    // Sending is audited as an action on the order: who, which message, how long — not the text.
    const [entry] = await auditEntries(ctx, a.tenantId, 'service-order');
    expect(entry).toMatchObject({ action: 'message', entityId: String(order.id), adminId: a.adminId });
    expect(entry.detail).toEqual({ orderNo: order.orderNo, messageId: sent.id, length: '师傅几点到？'.length });
    expect(JSON.stringify(entry)).not.toContain('师傅几点到');

    // Gone for a while: the messages sent meanwhile come first on the next subscribe.
    mine.socket.close();
    const missed = ok(await call<ServiceMessageRow>(ctx.app, 'POST', `${SERVICE}/message`, { token: tokenA, body: { orderId: order.id, content: '十点左右' } }));
    const back = await openSocket(tokenA);
    back.send({ type: 'subscribe', orderId: order.id, afterId: sent.id });
    expect(await back.waitFor((m) => m.type === 'message')).toMatchObject({ message: { id: missed.id, content: '十点左右' } });
    expect(back.received.filter((m) => m.type === 'message')).toHaveLength(1);
    const history = ok(await call<ServiceMessageRow[]>(ctx.app, 'GET', `${SERVICE}/message?orderId=${order.id}`, { token: tokenA }));
    expect(history.map((m) => m.content)).toEqual(['师傅几点到？', '十点左右']);
    back.socket.close();
    other.socket.close();
  });

  it('lets a technician read and write only the chat of orders dispatched to them (REST and WebSocket alike)', async () => {
    const order = await place();
    // A technician whose role sees all data (scope All) but holds only "my orders": the order's access decides, not the scope.
    const tech = await staffWith(ctx, a, { codes: ['service_myOrder_message'], dataScope: 'All' });
    const refusedTo = async (token: string) => {
      expect((await call(ctx.app, 'GET', `${SERVICE}/message?orderId=${order.id}`, { token })).body.message).toBe('ServiceOrderNotExist');
      expect((await call(ctx.app, 'POST', `${SERVICE}/message`, { token, body: { orderId: order.id, content: 'x' } })).body.message).toBe('ServiceOrderNotExist');
      const socket = await openSocket(token);
      socket.send({ type: 'subscribe', orderId: order.id, afterId: 0 });
      expect(await socket.waitFor((m) => m.type === 'error')).toMatchObject({ message: 'ServiceOrderNotExist', orderId: order.id });
      socket.socket.close();
    };
    // The technician holds "my orders" with its message button, but the order is not theirs.
    await refusedTo(tech.token);
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: order.id, staffId: tech.adminId } }));
    ok(await call(ctx.app, 'POST', `${SERVICE}/message`, { token: tech.token, body: { orderId: order.id, content: '我是师傅' } }));
    const socket = await openSocket(tech.token);
    socket.send({ type: 'subscribe', orderId: order.id, afterId: 0 });
    expect(await socket.waitFor((m) => m.type === 'message')).toMatchObject({ message: { content: '我是师傅' } });
    socket.socket.close();
    // Re-dispatched to someone else: the chat is no longer theirs.
    const other = await seedStaff(ctx.database, a);
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/audit`, { token: tokenA, body: { id: order.id, pass: true } }));
    ok(await call(ctx.app, 'PUT', `${SERVICE}/order/dispatch`, { token: tokenA, body: { id: order.id, staffId: other.adminId } }));
    await refusedTo(tech.token);
  });

  it('refuses a socket without a valid sign-in, and garbage', async () => {
    const anonymous = await openSocket();
    anonymous.send({ type: 'subscribe', orderId: 1 });
    expect(await anonymous.waitFor((m) => m.type === 'error')).toMatchObject({ message: 'Unauthorized' });
    expect(await anonymous.closed).toBe(4401);
    const wrong = await openSocket();
    wrong.send({ type: 'auth', token: 'not-a-token' });
    expect(await wrong.waitFor((m) => m.type === 'error')).toMatchObject({ message: 'Unauthorized' });
    const garbage = await openSocket(tokenA);
    garbage.socket.send('{nope');
    expect(await garbage.waitFor((m) => m.type === 'error')).toMatchObject({ message: 'BadRequest' });
    garbage.socket.close();
    // A plain HTTP request to the channel is answered with the envelope.
    const plain = await call(ctx.app, 'GET', '/api/ws');
    expect(plain.body).toMatchObject({ status: 40001, message: 'BadRequest' });
  });
});
