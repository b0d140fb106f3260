import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import type { ServiceOrderCounts } from '@p8/contract/service';
import type { TimeSettings } from '@p8/contract/base';
import { auditDispatch, cancelOrder, completeOrder, createOrder, dispatchOrder, startOrder } from '../../modules/service/orders.ts';
import type { Database } from '../connection.ts';
import { DEMO_TENANTS } from './demo.ts';
import { demoOrderTimes, demoSender, demoUnit, prng, uploadDemoImage, type DemoAccount, type Random } from './demo-mall.ts';

/*
 * The first demo tenant's base content and service orders, through the API like a user's: swiper slides
 * with generated images (stored through the upload path), both agreements, business hours and appointment
 * slots, and service orders in every status with chat on them — 120 placed over the last 60 days (through
 * the services, dated in the past like the mall's orders) and the 14 of today with their chat.
 */

const SWIPERS: Array<[title: string, link: string, hue: number]> = [
  ['春季上门保养季', '/pages/service/index', 200],
  ['工业电源 8 折起', '/pages/mall/category?id=3', 30],
  ['新客户注册送安装服务', 'https://example.com/welcome', 130],
];

const AGREEMENTS = {
  user: {
    title: '用户服务协议',
    content:
      '<h2>用户服务协议</h2><p>欢迎使用演示制造有限公司的服务。注册或使用本服务即表示您同意本协议。</p><h3>一、服务内容</h3><p>我们提供商品销售、上门安装与维保预约等服务，具体以页面展示为准。</p><h3>二、用户义务</h3><ul><li>提供真实、准确的联系方式与地址；</li><li>按约定时间配合上门服务。</li></ul><h3>三、订单与取消</h3><p>服务开始前可取消订单；已开始的服务不可取消。</p>',
  },
  privacy: {
    title: '隐私政策',
    content:
      '<h2>隐私政策</h2><p>我们重视您的个人信息保护。</p><h3>我们收集的信息</h3><p>姓名、手机号与服务地址，仅用于完成订单与联系您。</p><h3>信息的保存</h3><p>订单完成后按法律要求保存，不会出售给任何第三方。</p><p>如有疑问，请联系客服 <a href="mailto:service@example.com">service@example.com</a>。</p>',
  },
};

const HOURS = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, open: weekday <= 6, start: weekday === 6 ? '10:00' : '09:00', end: weekday === 6 ? '16:00' : '18:00' }));
const SLOTS: Array<[start: string, end: string, capacity: number]> = [
  ['09:00', '10:30', 4],
  ['10:30', '12:00', 4],
  ['13:30', '15:00', 6],
  ['15:00', '16:30', 6],
  ['16:30', '18:00', 3],
];

type Step = 'dispatch' | 'audit' | 'start' | 'complete' | 'cancel';
/** Each order: what, who, and the steps that bring it to its status. */
const ORDERS: Array<{ service: string; customer: string; phone: string; address: string; amount: number; steps: Step[]; chat: string[] }> = [
  { service: '空调清洗保养', customer: '王晓明', phone: '13911110001', address: '上海市浦东新区张江路 88 号 3 楼', amount: 168, steps: [], chat: ['您好，请问周三下午可以上门吗？', '可以的，我们安排好师傅后会联系您。'] },
  { service: '电机控制器安装调试', customer: '李静', phone: '13911110002', address: '江苏省苏州市工业园区星湖街 328 号', amount: 680, steps: [], chat: [] },
  { service: '配电柜年度巡检', customer: '张伟', phone: '13911110003', address: '浙江省杭州市滨江区网商路 699 号', amount: 1200, steps: [], chat: ['需要提前断电吗？'] },
  { service: 'UPS 电池更换', customer: '刘洋', phone: '13911110004', address: '广东省深圳市南山区科技园南区 6 栋', amount: 950, steps: ['dispatch'], chat: ['已派单给师傅，等待审核。'] },
  { service: '生产线传感器校准', customer: '陈思', phone: '13911110005', address: '北京市海淀区中关村大街 27 号', amount: 420, steps: ['dispatch'], chat: [] },
  { service: '工业风扇维修', customer: '杨帆', phone: '13911110006', address: '四川省成都市高新区天府大道 1700 号', amount: 260, steps: ['dispatch', 'audit'], chat: ['师傅明天上午 10 点到。', '好的，我们在一楼前台等。'] },
  { service: '照明线路改造', customer: '赵磊', phone: '13911110007', address: '上海市闵行区莘庄工业区春东路 508 号', amount: 3600, steps: ['dispatch', 'audit'], chat: [] },
  { service: '步进电机更换', customer: '黄丽', phone: '13911110008', address: '江苏省南京市江宁区秣周东路 12 号', amount: 540, steps: ['dispatch', 'audit', 'start'], chat: ['师傅已到现场，正在拆卸旧电机。', '辛苦了，旧电机请帮忙带走。', '好的。'] },
  { service: 'PLC 程序升级', customer: '周杰', phone: '13911110009', address: '浙江省宁波市鄞州区天童南路 588 号', amount: 1500, steps: ['dispatch', 'audit', 'start'], chat: ['升级预计需要两小时。'] },
  { service: '空压机保养', customer: '吴敏', phone: '13911110010', address: '广东省广州市黄埔区科学大道 18 号', amount: 880, steps: ['dispatch', 'audit', 'start', 'complete'], chat: ['保养已完成，更换了滤芯和机油。', '谢谢师傅！'] },
  { service: '安全帽批量检测', customer: '徐强', phone: '13911110011', address: '湖北省武汉市东湖高新区光谷大道 77 号', amount: 300, steps: ['dispatch', 'audit', 'start', 'complete'], chat: [] },
  { service: '开关电源维修', customer: '孙悦', phone: '13911110012', address: '山东省青岛市崂山区海尔路 1 号', amount: 180, steps: ['dispatch', 'audit', 'start', 'complete'], chat: ['电源已修复，附保修三个月。'] },
  { service: '车间网络布线', customer: '王晓明', phone: '13911110001', address: '上海市浦东新区张江路 88 号 5 楼', amount: 2200, steps: ['cancel'], chat: ['客户临时改期，先取消。'] },
  { service: '数显卡尺校准', customer: '李静', phone: '13911110002', address: '江苏省苏州市工业园区星湖街 328 号', amount: 120, steps: ['dispatch', 'cancel'], chat: [] },
];

/**
 * Seeds the first demo tenant's base content and service orders; false when it already has swiper slides
 * (an earlier start wrote them). Fails loudly on a refused call.
 */
export async function seedServiceDemo(app: FastifyInstance, database: Database, config: Config): Promise<boolean> {
  const demo = DEMO_TENANTS[0];
  const send = demoSender(app, 'service demo');
  const token = (await send<{ token: string }>('POST', '/auth/admin/name', { body: { name: demo.adminName, password: demo.password } })).token;
  try {
    const api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => send<T>(method, url, { token, body });
    if ((await api<unknown[]>('GET', '/admin/base/swiper?current=1&pageSize=1')).length > 0) return false;

    for (const [kind, agreement] of Object.entries(AGREEMENTS)) await api('PUT', '/admin/base/agreement', { kind, ...agreement });
    await api('PUT', '/admin/base/time/hours', { days: HOURS });
    // A start stopped half-way (the orders below take a while) wrote the slots already: not again.
    if (!(await api<TimeSettings>('GET', '/admin/base/time')).slots.length) {
      for (const [sort, [start, end, capacity]] of SLOTS.entries()) await api('POST', '/admin/base/time/slot', { start, end, capacity, sort });
    }

    const me = await api<DemoAccount>('GET', '/admin/current/detail');
    // A start stopped half-way left the oldest: the rest are placed now.
    const placed = (await api<ServiceOrderCounts>('GET', '/admin/service/order/counts')).all;
    if (placed < PAST_ORDERS) await seedPastOrders(demoUnit(app, database, config, me), me.id, prng(20261125), placed);
    // Those of today that a start stopped half-way placed already are not placed again.
    for (const order of ORDERS.slice(Math.max(0, placed - PAST_ORDERS))) {
      const { id } = await api<{ id: number }>('POST', '/admin/service/proxyOrder', {
        serviceName: order.service,
        customerName: order.customer,
        customerPhone: order.phone,
        address: order.address,
        amount: order.amount,
      });
      for (const step of order.steps) {
        if (step === 'dispatch') await api('PUT', '/admin/service/order/dispatch', { id, staffId: me.id, remark: '就近安排' });
        else if (step === 'audit') await api('PUT', '/admin/service/order/audit', { id, pass: true });
        else if (step === 'start') await api('PUT', '/admin/service/myOrder/start', { id });
        else if (step === 'complete') await api('PUT', '/admin/service/myOrder/complete', { id, remark: '客户已验收' });
        else await api('PUT', '/admin/service/order/cancel', { id, reason: '客户改期' });
      }
      for (const content of order.chat) await api('POST', '/admin/service/message', { orderId: id, content });
    }

    // The swiper last: its presence says the whole demo is written.
    for (const [sort, [title, link, hue]] of SWIPERS.entries()) {
      const image = await uploadDemoImage(send, token, `swiper-${sort + 1}`, hue, [750, 350]);
      await api('POST', '/admin/base/swiper', { title, image, link, sort });
    }
    return true;
  } finally {
    await send('POST', '/auth/logout', { token }).catch(() => {});
  }
}

/** Service orders placed over the last 60 days. */
const PAST_ORDERS = 120;
/** Orders per unit of work: short transactions, so that requests arriving meanwhile are not held up. */
const PAST_ORDERS_PER_UNIT = 20;
const HOUR = 3_600_000;

/**
 * PAST_ORDERS service orders (but the first `placed`) over the last 60 days, in every status: recent ones still waiting to be
 * dispatched, reviewed or served, older ones mostly completed, a few cancelled; each step dated after
 * the order, never after now, as a user's would be.
 */
async function seedPastOrders(unit: <T>(fn: (ctx: ServiceContext) => Promise<T>) => Promise<T>, staffId: number, random: Random, placed: number) {
  const now = Date.now();
  const times = demoOrderTimes(PAST_ORDERS, random, now).slice(placed);
  const at = (from: number, hours: number) => ({ at: new Date(Math.min(from + hours * HOUR, now - 60_000)) });
  for (let start = 0; start < times.length; start += PAST_ORDERS_PER_UNIT) {
    await unit(async (ctx) => {
      for (const time of times.slice(start, start + PAST_ORDERS_PER_UNIT)) {
        const pattern = random.pick(ORDERS);
        const input = { serviceName: pattern.service, customerName: pattern.customer, customerPhone: pattern.phone, address: pattern.address, amount: pattern.amount };
        const { order } = await createOrder(ctx, input, { source: random.next() < 0.4 ? 'proxy' : 'online', appointmentsOpen: false, at: new Date(time) });
        const age = (now - time) / (24 * HOUR);
        const roll = random.next();
        if (age < 2 && roll < 0.4) continue;
        if (roll < 0.08) {
          await cancelOrder(ctx, { id: order.id, reason: random.pick(['客户改期', '客户取消', '重复下单']) }, at(time, 3));
          continue;
        }
        const dispatched = await dispatchOrder(ctx, { id: order.id, staffId, remark: '就近安排' }, at(time, 4));
        if (age < 3 && roll < 0.55) continue;
        if (dispatched.status === 'PendingAudit') await auditDispatch(ctx, { id: order.id, pass: true }, at(time, 6));
        if (age < 4 && roll < 0.7) continue;
        await startOrder(ctx, { id: order.id }, at(time, 24));
        if (age < 5 && roll < 0.85) continue;
        await completeOrder(ctx, { id: order.id, remark: '客户已验收' }, at(time, 27));
      }
    });
  }
}
