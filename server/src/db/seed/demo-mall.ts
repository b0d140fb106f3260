import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { MallOrderCounts, MallOrderCreate, MallProduct, MallSkuInput, MallSpec } from '@p8/contract/mall';
import type { Config } from '../../config.ts';
import type { Database } from '../connection.ts';
import { withServiceContext, type ServiceContext } from '../../core/service-context.ts';
import { DEMO_TENANTS } from './demo.ts';
import { createFeedback, replyFeedback, setFeedbackStatus } from '../../modules/mall/feedback.ts';
import { createLottery, draw } from '../../modules/mall/lottery.ts';
import { applyRefund, approveRefund, cancelOrder, completeOrder, confirmRefund, createOrder, payOrder, refuseRefund, shipOrder } from '../../modules/mall/order.ts';

/*
 * The first demo tenant's mall: categories with icons, 24 products with their SKUs and generated images
 * (uploaded through the upload route like a user's), a dozen shoppers, 200 orders spread over the last 60
 * days in every status (so that lists, tabs and charts have something to show), a lottery in progress
 * with its draws, and feedback. Categories, products and shoppers go through the API; orders, draws and
 * feedback through the mall's services in one unit of work, with their times set in the past — the only
 * thing the API could not do. Runs once: a tenant that already has mall categories is left alone.
 */

interface Envelope<T> {
  status: number;
  message: string;
  additional?: unknown;
  data: T;
}

/** A small deterministic generator, so that every fresh demo looks the same. */
export function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A product picture: a soft two-colour gradient with a rounded tile in the middle, as a real PNG. */
export function demoPng(hue: number, size: number | [number, number] = 160): Buffer {
  const [width, height] = typeof size === 'number' ? [size, size] : size;
  const rgb = (h: number, s: number, l: number) => {
    const a = s * Math.min(l, 1 - l);
    const f = (n: number) => {
      const k = (n + h / 30) % 12;
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = 1 + width * 3;
  const raw = Buffer.alloc(height * row);
  const side = Math.min(width, height);
  const tileX = [width / 2 - side * 0.22, width / 2 + side * 0.22];
  const tileY = [height / 2 - side * 0.22, height / 2 + side * 0.22];
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0;
    for (let x = 0; x < width; x++) {
      const inTile = x > tileX[0] && x < tileX[1] && y > tileY[0] && y < tileY[1];
      const [r, g, b] = inTile ? rgb((hue + 180) % 360, 0.55, 0.6) : rgb(hue, 0.6, 0.78 - ((x / width + y / height) / 2) * 0.25);
      raw.set([r, g, b], y * row + 1 + x * 3);
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

type DemoProduct = { name: string; subtitle: string; category: string; price: number; specs: MallSpec[]; material?: string; unit?: string };

const CATEGORIES: Array<[string, string[]]> = [
  ['工业控制', ['电机控制器', '电机', '传感器']],
  ['电子元件', ['芯片模块', '电源']],
  ['五金工具', ['手动工具', '紧固件']],
  ['办公生活', ['办公用品', '劳保用品']],
];
const colours = (...values: string[]): MallSpec => ({ name: '颜色', values });
const model = (...values: string[]): MallSpec => ({ name: '型号', values });
const PRODUCTS: DemoProduct[] = [
  { name: '步进电机控制器 SMC-200', subtitle: '两相步进，细分可调，带报警输出', category: '电机控制器', price: 680, specs: [model('标准版', '通讯版'), { name: '电压', values: ['24V', '48V', '72V'] }], material: '步进电机控制器', unit: '台' },
  { name: '直流无刷电机 57BL', subtitle: '90W 低噪音长寿命', category: '电机', price: 320, specs: [{ name: '功率', values: ['60W', '90W', '120W'] }], material: '直流无刷电机', unit: '台' },
  { name: '伺服驱动器 SD-400', subtitle: '400W 总线型', category: '电机控制器', price: 1280, specs: [model('脉冲型', '总线型')], unit: '台' },
  { name: '减速电机 GM-37', subtitle: '金属齿轮箱', category: '电机', price: 89, specs: [{ name: '转速', values: ['30rpm', '60rpm', '100rpm', '200rpm'] }], unit: '个' },
  { name: '光电开关 E3F', subtitle: 'NPN 常开 漫反射', category: '传感器', price: 18.5, specs: [{ name: '输出', values: ['NPN', 'PNP'] }, { name: '距离', values: ['10cm', '30cm'] }], unit: '个' },
  { name: '温湿度传感器 TH-10', subtitle: 'RS485 Modbus', category: '传感器', price: 145, specs: [], unit: '个' },
  { name: '接近开关 LJ12', subtitle: 'M12 金属感应', category: '传感器', price: 12, specs: [{ name: '检测距离', values: ['2mm', '4mm'] }], unit: '个' },
  { name: 'STM32 开发板', subtitle: 'F103C8T6 最小系统', category: '芯片模块', price: 25.8, specs: [model('C8T6', 'CBT6')], unit: '块' },
  { name: 'WiFi 模块 ESP-12F', subtitle: '串口透传 低功耗', category: '芯片模块', price: 15.9, specs: [], unit: '个' },
  { name: '开关电源 LRS-150', subtitle: '150W 工业级', category: '电源', price: 86, specs: [{ name: '输出电压', values: ['12V', '24V', '48V'] }], unit: '台' },
  { name: '降压模块 LM2596', subtitle: '可调输出 3A', category: '电源', price: 6.5, specs: [], unit: '个' },
  { name: 'UPS 不间断电源', subtitle: '在线式 1kVA', category: '电源', price: 1599, specs: [{ name: '容量', values: ['1kVA', '2kVA'] }], unit: '台' },
  { name: '内六角扳手套装', subtitle: '9 件套 S2 钢', category: '手动工具', price: 39.9, specs: [{ name: '规格', values: ['公制', '英制'] }, colours('黑色', '彩色')], unit: '套' },
  { name: '数显卡尺', subtitle: '0-150mm 不锈钢', category: '手动工具', price: 118, specs: [{ name: '量程', values: ['150mm', '200mm', '300mm'] }], unit: '把' },
  { name: '电动螺丝刀', subtitle: '充电式 双速', category: '手动工具', price: 199, specs: [colours('红色', '蓝色'), { name: '套装', values: ['单机', '标配', '豪华'] }], unit: '台' },
  { name: '不锈钢螺丝组合', subtitle: 'M3-M6 共 500 颗', category: '紧固件', price: 29.9, specs: [], unit: '盒' },
  { name: '膨胀螺栓', subtitle: '镀锌 10 只装', category: '紧固件', price: 9.9, specs: [{ name: '规格', values: ['M6', 'M8', 'M10', 'M12'] }], unit: '包' },
  { name: '中性笔', subtitle: '0.5mm 12 支装', category: '办公用品', price: 15, specs: [colours('黑色', '蓝色', '红色')], unit: '盒' },
  { name: 'A4 复印纸', subtitle: '70g 500 张', category: '办公用品', price: 24.9, specs: [{ name: '包装', values: ['单包', '5包/箱'] }], unit: '包' },
  { name: '文件收纳盒', subtitle: '加厚 PP 材质', category: '办公用品', price: 19.9, specs: [colours('灰色', '蓝色', '白色')], unit: '个' },
  { name: '劳保手套', subtitle: '浸胶防滑 12 双', category: '劳保用品', price: 26, specs: [{ name: '尺码', values: ['M', 'L', 'XL'] }], unit: '包' },
  { name: '安全帽', subtitle: 'ABS 透气 国标', category: '劳保用品', price: 35, specs: [colours('黄色', '红色', '蓝色', '白色')], unit: '顶' },
  { name: '工作服套装', subtitle: '耐磨 春秋款', category: '劳保用品', price: 128, specs: [colours('藏青', '灰色'), { name: '尺码', values: ['M', 'L', 'XL'] }], unit: '套' },
  { name: '防护眼镜', subtitle: '防冲击 防雾', category: '劳保用品', price: 16.8, specs: [], unit: '副' },
];
const SHOPPERS: Array<[string, string]> = [
  ['王晓明', '13911110001'], ['李静', '13911110002'], ['张伟', '13911110003'], ['刘洋', '13911110004'],
  ['陈思', '13911110005'], ['杨帆', '13911110006'], ['赵磊', '13911110007'], ['黄丽', '13911110008'],
  ['周杰', '13911110009'], ['吴敏', '13911110010'], ['徐强', '13911110011'], ['孙悦', '13911110012'],
];
const ADDRESSES = ['上海市浦东新区张江路 88 号', '江苏省苏州市工业园区星湖街 328 号', '浙江省杭州市滨江区网商路 699 号', '广东省深圳市南山区科技园南区 6 栋', '北京市海淀区中关村大街 27 号', '四川省成都市高新区天府大道 1700 号'];
const CARRIERS = ['顺丰速运', '中通快递', '圆通速递', '京东物流', '韵达快递'];
const ORDERS = 200;
const DAY = 86_400_000;

/** Calls the app's API like a client (through app.inject); a refused call throws, naming `what`. */
export function demoSender(app: FastifyInstance, what: string): Send {
  return async <T>(method: 'GET' | 'POST' | 'PUT', url: string, options: { token?: string; body?: unknown; payload?: Buffer; headers?: Record<string, string> } = {}) => {
    const res = await app.inject({
      method,
      url: `/api${url}`,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
      ...(options.payload ? { payload: options.payload } : options.body === undefined ? {} : { payload: options.body as object }),
    });
    const envelope = res.json<Envelope<T>>();
    if (envelope.status !== 0) throw new Error(`${what}: ${method} ${url} refused: ${envelope.message} ${JSON.stringify(envelope.additional ?? '')}`);
    return envelope.data;
  };
}

/** An API call of the demo seeding: succeeds or throws. */
export type Send = <T>(method: 'GET' | 'POST' | 'PUT', url: string, options?: { token?: string; body?: unknown; payload?: Buffer; headers?: Record<string, string> }) => Promise<T>;
export type Random = ReturnType<typeof prng>;
/** The SKU ids of one product on the shelf. */
type ShelfProduct = number[];

/**
 * Seeds the first demo tenant's mall; false when it already has one. Fails loudly on a refused call. Each
 * part is skipped when an earlier start already wrote it, so a start stopped half-way resumes.
 */
export async function seedMallDemo(app: FastifyInstance, database: Database, config: Config): Promise<boolean> {
  const demo = DEMO_TENANTS[0];
  const send = demoSender(app, 'mall demo');
  const token = (await send<{ token: string }>('POST', '/auth/admin/name', { body: { name: demo.adminName, password: demo.password } })).token;
  try {
    const api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => send<T>(method, url, { token, body });
    const has = async (list: string) => (await api<unknown[]>('GET', `/admin/mall/${list}?current=1&pageSize=1`)).length > 0;
    if (await has('lottery')) return false;
    const random = prng(20261124);
    if (!(await has('category'))) await seedCatalogue(api, send, token, random);
    const unit = demoUnit(app, database, config, await api<DemoAccount>('GET', '/admin/current/detail'));
    const skus = await api<Array<{ skuId: number; productId: number }>>('GET', '/admin/mall/product/sku?current=1&pageSize=200');
    const products = [...new Set(skus.map((s) => s.productId))].map((id) => skus.filter((s) => s.productId === id).map((s) => s.skuId));
    const customers = await api<Array<{ id: number; name: string }>>('GET', '/admin/basic/customer?current=1&pageSize=100');
    const shoppers = SHOPPERS.map(([name]) => customers.find((c) => c.name === name)!.id);
    // A start stopped half-way left the oldest orders: the rest are placed now, the newest of the 60 days.
    const placed = (await api<MallOrderCounts>('GET', '/admin/mall/order/counts')).all;
    if (placed < ORDERS) await seedOrders(unit, products, shoppers, random, placed);
    await unit((ctx) => seedLotteryAndFeedback(ctx, shoppers, random));
    return true;
  } finally {
    await send('POST', '/auth/logout', { token }).catch(() => {});
  }
}

/** The signed-in demo account (`GET /admin/current/detail`). */
export interface DemoAccount {
  id: number;
  tenantId: number;
}

/** A unit of work (one transaction) acting as `me`: for demo data the API cannot date in the past. */
export function demoUnit(app: FastifyInstance, database: Database, config: Config, me: DemoAccount) {
  const caller = { tenantId: me.tenantId, account: { tenantId: me.tenantId, adminId: me.id, sessionId: '' }, config, registries: app.registries, log: app.log, ip: '', access: app.access };
  return <T>(fn: (ctx: ServiceContext) => Promise<T>) => withServiceContext(database, caller, fn);
}

/** A generated PNG stored through the upload path (POST /admin/upload/img); answers its url. */
export async function uploadDemoImage(send: Send, token: string, name: string, hue: number, size?: number | [number, number]): Promise<string> {
  const boundary = `----p8demo${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.png"\r\nContent-Type: image/png\r\n\r\n`),
    demoPng(hue, size),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return (await send<{ url: string }>('POST', '/admin/upload/img', { token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })).url;
}

/** Categories with icons, the products with their SKUs and images, the shoppers: through the API. */
async function seedCatalogue(api: <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => Promise<T>, send: Send, token: string, random: Random) {
  const upload = (name: string, hue: number, size?: number) => uploadDemoImage(send, token, name, hue, size);
  const categoryId = new Map<string, number>();
  for (const [sort, [top, children]] of CATEGORIES.entries()) {
    const parentId = (await api<{ id: number }>('POST', '/admin/mall/category', { name: top, sort, icon: await upload(`category-${sort}`, sort * 90, 64) })).id;
    for (const [childSort, child] of children.entries()) categoryId.set(child, (await api<{ id: number }>('POST', '/admin/mall/category', { name: child, parentId, sort: childSort })).id);
  }
  const materials = await api<Array<{ id: number; name: string }>>('GET', '/admin/basic/material?current=1&pageSize=100');
  for (const [i, p] of PRODUCTS.entries()) {
    const images = [await upload(`product-${i + 1}`, (i * 47) % 360)];
    const combos = p.specs.reduce<string[][]>((rows, spec) => rows.flatMap((row) => spec.values.map((v) => [...row, v])), [[]]);
    const skus: MallSkuInput[] = combos.map((specValues, j) => {
      const price = Math.round(p.price * (1 + j * 0.08) * 100) / 100;
      return { specValues, price, marketPrice: Math.round(price * 1.25), costPrice: Math.round(price * 0.6 * 100) / 100, stock: random.int(150, 400), code: `SP${String(i + 1).padStart(3, '0')}${String(j + 1).padStart(2, '0')}`, image: '' };
    });
    await api<MallProduct>('POST', '/admin/mall/product', {
      categoryId: categoryId.get(p.category)!,
      name: p.name,
      subtitle: p.subtitle,
      unitName: p.unit ?? '件',
      images,
      detail: `<h3>${p.name}</h3><p>${p.subtitle}。</p><ul><li>正品保障，支持开具增值税发票</li><li>下单后 48 小时内发货</li></ul><p><img src="${images[0]}" alt="${p.name}"></p>`,
      specs: p.specs,
      skus,
      // Two products wait in the back room.
      onShelf: i !== 5 && i !== 17,
      sort: i,
      materialId: materials.find((m) => m.name === p.material)?.id ?? null,
    });
  }
  for (const [name, phone] of SHOPPERS) await api('POST', '/admin/basic/customer', { name, phone, remark: '商城会员' });
}

/**
 * When `count` demo orders were placed: over the 60 days up to `now` (the start that seeds them, so that the
 * dashboard's default 30 days are never empty), more in recent weeks; oldest first, so that order ids
 * follow time.
 */
export function demoOrderTimes(count: number, random: Random, now: number): number[] {
  return Array.from({ length: count }, () => now - Math.floor(random.next() ** 1.4 * 60 * DAY)).sort((a, b) => a - b);
}

/** Orders per unit of work: short transactions, so that requests arriving meanwhile are not held up. */
const ORDERS_PER_UNIT = 20;

/** The demo's orders but the first `placed` (the oldest, written by a start stopped half-way). */
async function seedOrders(unit: <T>(fn: (ctx: ServiceContext) => Promise<T>) => Promise<T>, products: ShelfProduct[], shoppers: number[], random: Random, placed: number) {
  const now = Date.now();
  const times = demoOrderTimes(ORDERS, random, now).slice(placed);
  const later = (from: number, hours: number) => new Date(Math.min(from + hours * 3_600_000, now - 60_000));
  for (let start = 0; start < times.length; start += ORDERS_PER_UNIT) {
    await unit(async (ctx) => {
      for (const time of times.slice(start, start + ORDERS_PER_UNIT)) await seedOrder(ctx, time, later, now);
    });
  }

  async function seedOrder(ctx: ServiceContext, time: number, at: (from: number, hours: number) => Date, clock: number) {
    const lines = new Map<number, number>();
    for (let n = random.int(1, 3); n > 0; n--) lines.set(random.pick(random.pick(products)), random.int(1, 3));
    const who = random.int(0, shoppers.length - 1);
    const body: MallOrderCreate = {
      customerId: shoppers[who],
      consignee: SHOPPERS[who][0],
      phone: SHOPPERS[who][1],
      address: random.pick(ADDRESSES),
      items: [...lines].map(([skuId, quantity]) => ({ skuId, quantity })),
      freightAmount: random.next() < 0.6 ? 0 : 10,
      discountAmount: random.next() < 0.2 ? 5 : 0,
      buyerRemark: random.next() < 0.15 ? '请尽快发货' : '',
    };
    const order = await createOrder(ctx, body, random.next() < 0.25 ? 'proxy' : 'mall', { at: new Date(time) });
    const age = (clock - time) / DAY;
    const roll = random.next();
    // Recent orders are still moving; older ones have mostly arrived.
    if (age < 2 && roll < 0.5) return;
    if (roll < 0.1) return void (await cancelOrder(ctx, order.id, random.pick(['客户取消', '超时未付款', '重复下单']), { at: at(time, 2) }));
    await payOrder(ctx, order.id, random.pick(['wechat', 'alipay', 'wechat', 'balance'] as const), { at: at(time, 0.2) });
    if (roll < 0.16) {
      await applyRefund(ctx, order.id, { reason: random.pick(['拍错规格', '不想要了', '商品与描述不符']) }, { at: at(time, 5) });
      if (age < 3) return;
      if (roll < 0.13) {
        await approveRefund(ctx, order.id, { at: at(time, 20) });
        return void (await confirmRefund(ctx, order.id, { at: at(time, 26) }));
      }
      await refuseRefund(ctx, order.id, '商品已出库', { at: at(time, 20) });
    }
    if (age < 4 && roll < 0.75) return;
    await shipOrder(ctx, order.id, { logisticsCompany: random.pick(CARRIERS), logisticsNo: `SF${String(Math.floor(time / 1000))}${random.int(10, 99)}` }, { at: at(time, 24) });
    if (age < 8 && roll < 0.85) return;
    await completeOrder(ctx, order.id, { at: at(time, 96) });
  }
}

async function seedLotteryAndFeedback(ctx: ServiceContext, shoppers: number[], random: Random) {
  const now = Date.now();
  const lottery = await createLottery(ctx, {
    name: '双十二幸运大抽奖',
    startAt: new Date(now - 10 * DAY).toISOString(),
    endAt: new Date(now + 20 * DAY).toISOString(),
    drawLimit: 3,
    rule: '活动期间每位会员最多抽奖 3 次；实物奖品在 7 个工作日内寄出。',
    enabled: true,
    prizes: [
      { name: '电动螺丝刀', kind: 'goods', image: '', probability: 2, stock: 3 },
      { name: '100 积分', kind: 'points', image: '', probability: 20, stock: 200 },
      { name: '满 100 减 10 优惠券', kind: 'coupon', image: '', probability: 28, stock: 300 },
      { name: '谢谢参与', kind: 'none', image: '', probability: 50, stock: 0 },
    ],
  });
  await createLottery(ctx, {
    name: '新春开工抽奖',
    startAt: new Date(now + 40 * DAY).toISOString(),
    endAt: new Date(now + 55 * DAY).toISOString(),
    drawLimit: 1,
    rule: '开工第一天，每位会员抽奖一次。',
    enabled: true,
    prizes: [
      { name: '安全帽', kind: 'goods', image: '', probability: 10, stock: 20 },
      { name: '谢谢参与', kind: 'none', image: '', probability: 90, stock: 0 },
    ],
  });
  for (const shopper of shoppers) {
    for (let n = random.int(1, 3); n > 0; n--) await draw(ctx, lottery.id, shopper, { at: new Date(now - random.int(1, 9 * 24) * 3_600_000), roll: random.int(0, 9999) });
  }
  const FEEDBACK: Array<[string, 'suggestion' | 'complaint' | 'product' | 'logistics' | 'other', string | null]> = [
    ['希望增加发票抬头管理功能，每次下单都要重新填写。', 'suggestion', '感谢建议，我们已排入下个版本。'],
    ['快递太慢了，下单三天才发货。', 'logistics', '非常抱歉，仓库近期订单较多，已加派人手。'],
    ['收到的开关电源外壳有划痕。', 'product', '已为您安排换货，请留意短信通知。'],
    ['客服响应很快，点赞！', 'other', null],
    ['电机控制器能否提供英文说明书？', 'suggestion', null],
    ['优惠券无法和满减同时使用吗？', 'other', '优惠券与满减活动不叠加，感谢理解。'],
    ['安全帽尺寸偏小。', 'complaint', null],
    ['希望支持月结付款。', 'suggestion', null],
  ];
  for (const [i, [content, type, reply]] of FEEDBACK.entries()) {
    const shopper = shoppers[i % shoppers.length];
    const at = new Date(now - (FEEDBACK.length - i) * 2.5 * DAY);
    const created = await createFeedback(ctx, { customerId: shopper, contactName: SHOPPERS[i % SHOPPERS.length][0], contactPhone: SHOPPERS[i % SHOPPERS.length][1], type, content, images: [] }, { at });
    if (reply) await replyFeedback(ctx, created.id, reply, { at: new Date(at.getTime() + 6 * 3_600_000) });
    if (i === 0) await setFeedbackStatus(ctx, [created.id], 'Closed');
  }
}
