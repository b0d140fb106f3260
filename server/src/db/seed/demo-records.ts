import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../connection.ts';
import type { BomItemType, FeeKind, LotPolicy, MaterialTag, PartKind } from '@p8/contract/basic';
import { DEMO_TENANTS } from './demo.ts';

/*
 * The basic records of the first demo tenant (演示制造有限公司, a small maker of motor controllers): units,
 * brands, categories, materials with their units, suppliers, customers, warehouses with locations, fee and
 * pay types, the processes, work teams, machines and routings of the workshop and five BOMs (the controller's three levels deep; one outsourced). They are created through the application's own API, signed in as the tenant's
 * administrator, so every rule, generated code, assignment and audit entry is the same as a user's —
 * nothing is inserted behind the services' back. Runs once: a tenant that already has units is left alone.
 */

interface Envelope<T> {
  status: number;
  message: string;
  additional?: unknown;
  data: T;
  total?: number;
}

type DemoMaterial = {
  key: string;
  name: string;
  specification?: string;
  model?: string;
  category: string;
  brand?: string;
  unit: string;
  /** Further units: name and how many main units one holds. */
  more?: Array<[string, number]>;
  tags: MaterialTag[];
  partKind?: PartKind;
  purchasePrice?: number;
  salePrice?: number;
  safetyStock?: number;
  /** Planning (MRP): lead time in days and the lot its orders come in. */
  planning?: { leadTimeDays: number; lotPolicy?: LotPolicy; lotSize?: number };
  batchNumber?: boolean;
  serialNumber?: boolean;
};

const UNITS = ['个', '台', '套', '件', '米', '千克', '箱', '卷', '桶'];
const BRANDS = ['华锐', '明光电子', '恒通五金', '演示自制'];
/** Parent → children; top level first. */
const CATEGORIES: Array<[string, string[]]> = [
  ['原材料', ['钢材', '电子元器件', '紧固件', '线缆']],
  ['半成品', ['电路板组件', '机芯组件']],
  ['成品', ['电机控制器', '电机']],
  ['辅料', ['包装材料', '耗材']],
];
const MATERIALS: DemoMaterial[] = [
  { key: 'steel', name: '冷轧钢板', specification: '1.0mm×1250mm', category: '钢材', brand: '华锐', unit: '千克', tags: ['purchase'], purchasePrice: 5.2, safetyStock: 500, batchNumber: true },
  { key: 'bar', name: '不锈钢圆棒', specification: 'Φ20 304', category: '钢材', brand: '华锐', unit: '米', tags: ['purchase'], purchasePrice: 38 },
  { key: 'screw', name: '内六角螺钉', specification: 'M4×12', category: '紧固件', brand: '恒通五金', unit: '个', more: [['箱', 1000]], tags: ['purchase'], purchasePrice: 0.08, safetyStock: 5000 },
  { key: 'nut', name: '六角螺母', specification: 'M4', category: '紧固件', brand: '恒通五金', unit: '个', more: [['箱', 2000]], tags: ['purchase'], purchasePrice: 0.03 },
  { key: 'resistor', name: '贴片电阻', specification: '10kΩ 0603', category: '电子元器件', brand: '明光电子', unit: '个', more: [['卷', 5000]], tags: ['purchase'], purchasePrice: 0.005, planning: { leadTimeDays: 5, lotPolicy: 'minimum', lotSize: 5000 } },
  { key: 'capacitor', name: '电解电容', specification: '470μF/25V', category: '电子元器件', brand: '明光电子', unit: '个', tags: ['purchase'], purchasePrice: 0.35, planning: { leadTimeDays: 5 } },
  { key: 'mcu', name: '单片机', specification: 'STM32F103C8T6', category: '电子元器件', brand: '明光电子', unit: '个', tags: ['purchase'], purchasePrice: 9.8, safetyStock: 200, batchNumber: true, planning: { leadTimeDays: 10, lotPolicy: 'fixed', lotSize: 100 } },
  { key: 'regulator', name: '电源芯片', specification: 'LM2596S-5.0', category: '电子元器件', brand: '明光电子', unit: '个', tags: ['purchase'], purchasePrice: 2.6, planning: { leadTimeDays: 7 } },
  { key: 'wire', name: '铜芯软电线', specification: 'RV 0.75mm²', category: '线缆', unit: '米', more: [['卷', 100]], tags: ['purchase'], purchasePrice: 0.9 },
  { key: 'terminal', name: '接线端子', specification: 'KF301-3P 5.0mm', category: '电子元器件', brand: '明光电子', unit: '个', tags: ['purchase'], purchasePrice: 0.6, planning: { leadTimeDays: 5 } },
  { key: 'board', name: '控制板组件', specification: 'PCBA-A1', category: '电路板组件', brand: '演示自制', unit: '件', tags: ['production'], partKind: 'customized', planning: { leadTimeDays: 2 } },
  // The controller's works: the board in its sheet-metal case, wired to its terminals (made, not sold).
  { key: 'core', name: '控制器机芯', specification: 'SMC-200-M', category: '机芯组件', brand: '演示自制', unit: '件', tags: ['production'], partKind: 'customized', planning: { leadTimeDays: 2 } },
  { key: 'controller', name: '步进电机控制器', specification: 'SMC-200', model: 'SMC-200', category: '电机控制器', brand: '演示自制', unit: '台', tags: ['sale', 'production'], salePrice: 680, serialNumber: true, planning: { leadTimeDays: 3 } },
  { key: 'motor', name: '直流无刷电机', specification: '57BL 90W', model: 'BL-57', category: '电机', brand: '演示自制', unit: '台', more: [['箱', 4]], tags: ['sale', 'purchase'], purchasePrice: 210, salePrice: 320 },
  // Made by 恒通五金 from our steel and screws, for a processing fee (委外).
  { key: 'bracket', name: '电机安装支架', specification: 'ZJ-57', category: '钢材', brand: '演示自制', unit: '件', tags: ['outsource'], partKind: 'customized' },
  { key: 'carton', name: '包装纸箱', specification: '400×300×200mm', category: '包装材料', unit: '个', tags: ['purchase'], purchasePrice: 3.5 },
  { key: 'oil', name: '润滑油', specification: '1L', category: '耗材', unit: '桶', tags: ['purchase', 'consumables'], purchasePrice: 45 },
  // Entrusted machining (受托加工): 精工数控 supplies the castings, we machine its end caps for a fee.
  { key: 'casting', name: '端盖铸件毛坯', specification: 'HT200 Φ120', category: '钢材', unit: '件', tags: ['entrust'] },
  { key: 'endcap', name: '机床主轴端盖', specification: 'DG-120 精加工', category: '钢材', brand: '演示自制', unit: '件', tags: ['sale', 'production'], partKind: 'customized' },
];
/**
 * The products' BOMs: the product, the routing it is made by (ROUTINGS below), its components. The controller
 * is three levels deep: controller → works (sub-assembly) → board (part) → purchased materials.
 */
const BOMS: Array<[string, string, Array<[string, number, BomItemType?]>]> = [
  ['board', 'GYLX02', [['mcu', 1], ['regulator', 1], ['resistor', 24], ['capacitor', 4]]],
  ['core', 'GYLX03', [['board', 1], ['steel', 0.6], ['screw', 8], ['nut', 8], ['wire', 1.5], ['terminal', 2]]],
  ['controller', 'GYLX01', [['core', 1], ['carton', 1]]],
  // Outsourced: the supplier does the work, so no routing.
  ['bracket', '', [['steel', 0.5], ['screw', 4]]],
  // Machined from the customer's casting, fixed with four of our screws; the lathe's oil a consumable line (子项类型
  // 耗材): a hundredth of a barrel a cap by the BOM, picked as the machining uses it.
  ['endcap', '', [['casting', 1], ['screw', 4], ['oil', 0.01, 'Consumable']]],
];
const SUPPLIERS = [
  { name: '江苏华锐钢材有限公司', shortName: '华锐钢材', phone: '0510-82345678', contact: ['周建国', '13912345601', '销售经理'], bankName: '中国工商银行无锡分行' },
  { name: '深圳明光电子元件有限公司', shortName: '明光电子', phone: '0755-26781234', contact: ['林晓燕', '13823456702', '客户经理'], bankName: '招商银行深圳科技园支行' },
  { name: '宁波恒通五金制品厂', shortName: '恒通五金', phone: '0574-87654321', contact: ['王海峰', '13605741203', '厂长'], bankName: '宁波银行江北支行' },
  { name: '东莞佳美包装材料有限公司', shortName: '佳美包装', phone: '0769-22334455', contact: ['陈丽', '13790213304', '业务员'], bankName: '中国农业银行东莞分行' },
];
const CUSTOMERS = [
  { name: '上海智控自动化设备有限公司', shortName: '上海智控', phone: '021-64567890', contact: ['张伟', '13816678901', '采购经理'], bankName: '上海浦东发展银行闵行支行' },
  { name: '杭州新源机电科技有限公司', shortName: '新源机电', phone: '0571-88123456', contact: ['李娜', '13958012302', '采购主管'], bankName: '杭州银行滨江支行' },
  { name: '苏州精工数控机床有限公司', shortName: '精工数控', phone: '0512-65432198', contact: ['赵磊', '13962134503', '设备部经理'], bankName: '中国银行苏州工业园区支行' },
  { name: '广州云帆智能装备有限公司', shortName: '云帆智能', phone: '020-38765432', contact: ['黄思远', '13711223304', '总经理'], bankName: '中国建设银行广州天河支行' },
];
const WAREHOUSES: Array<{ name: string; address: string; locations: string[]; rejects?: boolean; customer?: string }> = [
  { name: '原料仓', address: '厂区一号库房', locations: ['A-01 钢材区', 'A-02 电子料区', 'A-03 五金区'] },
  { name: '半成品仓', address: '厂区二号库房', locations: ['B-01 板卡区'] },
  { name: '成品仓', address: '厂区三号库房', locations: ['C-01 控制器区', 'C-02 电机区', 'C-03 待发区'] },
  // Scrap from the workshop, kept for sale to the recycler (waste in-stocks): nothing in it is there to plan with.
  { name: '废品仓', address: '厂区东侧棚库', locations: [], rejects: true },
  // Goods inspections rejected, held until they go back to the supplier.
  { name: '不良品仓', address: '厂区二号库房西侧', locations: [], rejects: true },
  // 精工数控's castings for entrusted machining: theirs, kept at no value.
  { name: '客供料仓(精工数控)', address: '厂区一号库房东侧', locations: [], customer: '精工数控' },
];
const FEES: Array<[string, FeeKind, boolean?]> = [
  ['运输费', 'expense'],
  ['包装费', 'expense'],
  // The workshop's power and water: production overhead (5101), allocated by the month-end cost run.
  ['车间水电费', 'expense', true],
  ['安装调试费', 'income'],
  ['技术服务费', 'income'],
];
const PAY_TYPES = ['银行转账', '现金', '银行承兑汇票', '微信支付', '支付宝'];
/**
 * The steps of making a controller: code, name, piece rate (yuan per good piece), standard hours per piece, and
 * whether its output is inspected before the next step (the soldered boards, the aged units).
 */
const PROCESSES: Array<[string, string, number, number, boolean]> = [
  ['GX01', '钣金下料', 0.8, 0.05, false],
  ['GX02', '冲压折弯', 1.2, 0.08, false],
  ['GX03', 'SMT贴片', 0.6, 0.02, false],
  ['GX04', '插件焊接', 2.5, 0.15, true],
  ['GX05', '程序烧录', 0.5, 0.03, false],
  ['GX06', '整机装配', 6, 0.4, false],
  ['GX07', '老化测试', 3, 2, true],
  ['GX08', '包装入箱', 0.7, 0.05, false],
];

/**
 * The workshop's crews: code, name, the workshop department they belong to (led by the administrator), and their
 * members — account, name and share of the crew's piece wages (a senior hand takes more).
 */
const TEAMS: Array<[string, string, string, Array<[string, string, number]>]> = [
  ['BZ01', '钣金班', '生产一车间', [['wangqiang', '王强', 1.2], ['liuyang', '刘洋', 1]]],
  ['BZ02', '电子装配班', '生产二车间', [['chenjing', '陈静', 1], ['zhaomin', '赵敏', 1], ['sunli', '孙丽', 0.8]]],
  ['BZ03', '总装测试班', '生产二车间', [['zhoujie', '周杰', 1.2], ['wugang', '吴刚', 1]]],
];
/**
 * The routings the demo company makes its products by: code, name, description, and the steps — a process
 * code, the team doing it, and its own standard hours where they differ from the process's (null: the process's).
 */
const ROUTINGS: Array<[string, string, string, Array<[string, string, number | null]>]> = [
  [
    'GYLX01',
    '控制器标准工艺',
    '机芯装配 → 老化测试 → 包装',
    [
      ['GX06', 'BZ03', null],
      ['GX07', 'BZ03', 4],
      ['GX08', 'BZ03', null],
    ],
  ],
  [
    'GYLX02',
    '电路板组装工艺',
    '外购电路板只贴片、焊接、烧录',
    [
      ['GX03', 'BZ02', null],
      ['GX04', 'BZ02', 0.1],
      ['GX05', 'BZ02', null],
    ],
  ],
  [
    'GYLX03',
    '机芯装配工艺',
    '钣金外壳下料折弯，装入电路板并焊接端子线',
    [
      ['GX01', 'BZ01', null],
      ['GX02', 'BZ01', null],
      ['GX04', 'BZ02', 0.2],
    ],
  ],
];
/** The machines: code, name, model, the team keeping it, status, maintenance every N days. */
const EQUIPMENT: Array<[string, string, string, string, string, number]> = [
  ['SB01', '数控冲床', 'AMADA EM-2510', 'BZ01', 'running', 30],
  ['SB02', '数控折弯机', 'TRUMPF 5130', 'BZ01', 'idle', 30],
  ['SB03', '贴片机', 'YAMAHA YSM20R', 'BZ02', 'running', 15],
  ['SB04', '回流焊炉', 'HELLER 1809', 'BZ02', 'maintenance', 15],
  ['SB05', '老化测试柜', 'LH-48', 'BZ03', 'running', 90],
];

/**
 * Whether the first demo tenant exists and has no units yet — a read on the owner connection, so that a
 * restart need not sign in (argon2) and call the API just to find the records there.
 */
export async function demoRecordsMissing(database: Database): Promise<boolean> {
  const [found] = await rows<{ has_units: boolean }>(
    database,
    sql`select exists (select 1 from unit u where u.tenant_id = l.tenant_id) as has_units from login_name l where l.name = lower(${DEMO_TENANTS[0].adminName})`,
  );
  return !!found && !found.has_units;
}

/** Seeds the first demo tenant's records; false when it already has some. Fails loudly on a refused record. */
export async function seedDemoRecords(app: FastifyInstance): Promise<boolean> {
  const demo = DEMO_TENANTS[0];
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token?: string): Promise<Envelope<T>> => {
    const res = await app.inject({ method, url: `/api${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body === undefined ? {} : { payload: body as object }) });
    const envelope = res.json<Envelope<T>>();
    if (envelope.status !== 0) throw new Error(`demo records: ${method} ${url} refused: ${envelope.message} ${JSON.stringify(envelope.additional ?? '')}`);
    return envelope;
  };
  const signIn = await call<{ token: string }>('POST', '/auth/admin/name', { name: demo.adminName, password: demo.password });
  const token = signIn.data.token;
  try {
    const api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => call<T>(method, url, body, token);
    const create = async (record: string, body: unknown) => (await api<{ id: number }>('POST', `/admin/basic/${record}`, body)).data.id;

    if ((await api<unknown[]>('GET', '/admin/basic/unit?current=1&pageSize=1')).data.length) return false;

    const unitId = new Map<string, number>();
    for (const [sort, name] of UNITS.entries()) unitId.set(name, await create('unit', { name, sort }));
    const brandId = new Map<string, number>();
    for (const [sort, name] of BRANDS.entries()) brandId.set(name, await create('brand', { name, sort }));
    const categoryId = new Map<string, number>();
    for (const [sort, [parent, children]] of CATEGORIES.entries()) {
      const parentId = await create('category', { name: parent, sort });
      for (const [childSort, child] of children.entries()) categoryId.set(child, await create('category', { name: child, parentId, sort: childSort }));
    }

    const materialId = new Map<string, number>();
    for (const m of MATERIALS) {
      const units = [{ unitId: unitId.get(m.unit)!, ratio: 1, isMain: true }, ...(m.more ?? []).map(([name, ratio]) => ({ unitId: unitId.get(name)!, ratio, isMain: false }))];
      materialId.set(
        m.key,
        await create('material', {
          name: m.name,
          specification: m.specification ?? '',
          model: m.model ?? '',
          categoryId: categoryId.get(m.category)!,
          brandId: m.brand ? brandId.get(m.brand)! : null,
          tags: m.tags,
          partKind: m.partKind ?? 'standard',
          purchasePrice: m.purchasePrice ?? null,
          salePrice: m.salePrice ?? null,
          safetyStock: m.safetyStock ?? null,
          ...(m.planning ?? {}),
          batchNumber: m.batchNumber ?? false,
          serialNumber: m.serialNumber ?? false,
          units,
        }),
      );
    }

    const partner = (p: (typeof SUPPLIERS)[number] | (typeof CUSTOMERS)[number]) => {
      const { contact, ...fields } = p;
      return { ...fields, contacts: [{ name: contact[0], phone: contact[1], position: contact[2], isDefault: true }] };
    };
    for (const s of SUPPLIERS) await create('supplier', partner(s));
    const customerIds = new Map<string, number>();
    for (const c of CUSTOMERS) customerIds.set(c.shortName, await create('customer', partner(c)));

    for (const [sort, w] of WAREHOUSES.entries()) {
      const warehouseId = await create('stock', { name: w.name, address: w.address, rejects: w.rejects ?? false, customerId: w.customer ? customerIds.get(w.customer) : null, sort });
      for (const [locationSort, name] of w.locations.entries()) await create('location', { warehouseId, name, sort: locationSort });
    }
    for (const [sort, [name, kind, overhead]] of FEES.entries()) await create('fee', { name, kind, sort, overhead: !!overhead });
    for (const [sort, name] of PAY_TYPES.entries()) await create('paytype', { name, sort });
    const processId = new Map<string, number>();
    for (const [sort, [code, name, pieceRate, standardHours, needsInspection]] of PROCESSES.entries()) processId.set(code, await create('process', { code, name, pieceRate, standardHours, needsInspection, sort }));

    // The workshops (departments) and their crews, led by the administrator; the machines each crew keeps.
    const leaderId = (await api<Array<{ id: number }>>('GET', '/admin/security/admin?current=1&pageSize=1')).data[0]?.id ?? null;
    const deptId = new Map<string, number>();
    for (const workshop of new Set(TEAMS.map(([, , dept]) => dept))) deptId.set(workshop, (await api<{ id: number }>('POST', '/admin/security/dept', { name: workshop })).data.id);
    // The workers: staff accounts of their workshop with a role of their own that opens no screen yet.
    const workerRole = (await api<{ id: number }>('POST', '/admin/security/role', { roleKey: 'worker', roleName: '车间操作工', remark: '工序汇报与计件工资的操作工' })).data.id;
    const staffId = new Map<string, number>();
    for (const [, , dept, members] of TEAMS) {
      for (const [account, realName] of members) {
        staffId.set(account, (await api<{ id: number }>('POST', '/admin/security/admin', { name: account, realName, password: 'worker123', deptId: deptId.get(dept), roleIds: [workerRole] })).data.id);
      }
    }
    const teamId = new Map<string, number>();
    for (const [sort, [code, name, dept, members]] of TEAMS.entries()) {
      teamId.set(code, await create('team', { code, name, leaderId, deptId: deptId.get(dept), sort, members: members.map(([account, , share]) => ({ staffId: staffId.get(account), share })) }));
    }
    for (const [sort, [code, name, model, team, status, maintenanceDays]] of EQUIPMENT.entries()) await create('equipment', { code, name, model, teamId: teamId.get(team), status, maintenanceDays, sort });
    const routingId = new Map<string, number>();
    for (const [sort, [code, name, description, steps]] of ROUTINGS.entries()) {
      routingId.set(code, await create('routing', { code, name, description, sort, steps: steps.map(([process, team, standardHours]) => ({ processId: processId.get(process), teamId: teamId.get(team), standardHours })) }));
    }
    for (const [product, routing, lines] of BOMS) {
      await create('bom', {
        materialId: materialId.get(product)!,
        version: 'V1.0',
        quantity: 1,
        isDefault: true,
        routingId: routingId.get(routing),
        lines: lines.map(([key, quantity, itemType]) => ({ materialId: materialId.get(key)!, quantity, itemType: itemType ?? 'Standard' })),
      });
    }
    // Quality's inspection templates: the MCU waits for its incoming inspection, every other material is looked
    // over by the general one; the control board's first-article, patrol and finished-product checks; shipments.
    const template = (body: Record<string, unknown>) => api('POST', '/admin/quality/inspectionTemplate', body);
    const passFail = (name: string, method: string, blocks = true) => ({ name, method, valueKind: 'PassFail', blocks });
    const reading = (name: string, method: string, standard: number, lower: number, upper: number) => ({ name, method, valueKind: 'Numeric', standard, lower, upper, blocks: true });
    await template({ code: 'IQC-MCU', name: '单片机来料检验', inspectionKind: 'Incoming', materialId: materialId.get('mcu'), sampling: 'Percent', sampleValue: 5, gates: true, items: [passFail('外观', '目视'), passFail('型号丝印', '对照规格书'), reading('引脚共面度(mm)', '塞尺', 0, 0, 0.1)] });
    await template({ code: 'IQC-GEN', name: '通用来料检验', inspectionKind: 'Incoming', sampling: 'Fixed', sampleValue: 5, gates: false, items: [passFail('外观', '目视'), passFail('数量核对', '点数', false)] });
    const board = materialId.get('board');
    await template({ code: 'FAI-PCBA', name: '控制板首件检验', inspectionKind: 'FirstArticle', materialId: board, sampling: 'Fixed', sampleValue: 1, gates: false, items: [passFail('焊点', '放大镜'), reading('待机电流(mA)', '万用表', 100, 80, 120)] });
    await template({ code: 'IPQC-PCBA', name: '控制板巡检', inspectionKind: 'Patrol', materialId: board, sampling: 'Fixed', sampleValue: 5, gates: false, items: [passFail('焊点', '放大镜'), passFail('极性', '目视')] });
    await template({ code: 'FQC-PCBA', name: '控制板成品检验', inspectionKind: 'Finished', materialId: board, sampling: 'All', gates: false, items: [reading('待机电流(mA)', '万用表', 100, 80, 120), passFail('功能测试', '测试治具')] });
    await template({ code: 'OQC-GEN', name: '出货检验', inspectionKind: 'Shipment', sampling: 'Fixed', sampleValue: 3, gates: false, items: [passFail('包装', '目视'), passFail('标签', '核对订单', false)] });
    return true;
  } finally {
    await call('POST', '/auth/logout', undefined, token).catch(() => {});
  }
}
