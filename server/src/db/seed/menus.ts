import { and, eq, inArray } from 'drizzle-orm';
import type { MenuType } from '@p8/contract/menu';
import { BILL_TYPES, billTypesByArea } from '@p8/contract/bills/catalogue';
import { BILL_AREA_LABELS, billButtons, billMenuName, type BillArea, type BillTypeDecl } from '@p8/contract/bills/registry';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { RECORD_ACTIONS, recordMenuName, type RecordKindDecl } from '@p8/contract/records/registry';
import type { Tx } from '../connection.ts';
import { menu } from '../schema/index.ts';

/**
 * The menu template: the screens that exist, with their button codes. Every tenant gets this tree at
 * registration, and on start each tenant receives the entries it lacks (by `name`), so a release that adds
 * a screen reaches existing tenants. Each issue that adds a screen adds its entry here — never a menu
 * for a screen that does not exist.
 */
export interface MenuTemplate {
  name: string;
  path?: string;
  component?: string;
  redirect?: string;
  icon?: string;
  title: string;
  titleEn: string;
  type: MenuType;
  affix?: boolean;
  hide?: boolean;
  full?: boolean;
  keepAlive?: boolean;
  children?: MenuTemplate[];
}

/** The usual buttons of a screen, by action; a screen's button code is `<screen name>_<action>`. */
const BUTTONS = {
  add: ['新增', 'Add'],
  update: ['编辑', 'Edit'],
  delete: ['删除', 'Delete'],
  enable: ['启用禁用', 'Enable'],
  import: ['导入', 'Import'],
  export: ['导出', 'Export'],
  assign: ['分配', 'Assign'],
} as const satisfies Record<string, readonly [string, string]>;

/** A button: one of the usual actions, or an action with its own titles. */
type ButtonSpec = keyof typeof BUTTONS | { action: string; title: string; titleEn: string };

/** A screen of `<area>_<key>` at `/<area>/<key>` (component `<area>/<key>/index`) with its buttons. */
function screen(name: string, title: string, titleEn: string, icon: string, buttons: ButtonSpec[]): MenuTemplate {
  const route = name.replace('_', '/');
  return {
    name,
    path: `/${route}`,
    component: `${route}/index`,
    icon,
    title,
    titleEn,
    type: 'Menu',
    children: buttons.map((b) => {
      const { action, title: bTitle, titleEn: bTitleEn } = typeof b === 'string' ? { action: b, title: BUTTONS[b][0], titleEn: BUTTONS[b][1] } : b;
      return { name: `${name}_${action}`, title: bTitle, titleEn: bTitleEn, type: 'Button' as const };
    }),
  };
}

/** Every write of `/api/admin/basic/<record>` checks one of these. */
const RECORD_BUTTONS: ButtonSpec[] = ['add', 'update', 'delete', 'enable', 'import', 'export'];
const ASSIGNED_RECORD_BUTTONS: ButtonSpec[] = [...RECORD_BUTTONS, 'assign'];
/** Printing the labels of a list's selection (`<screen>_printLabel`: materials and their boxes, storage locations). */
const PRINT_LABEL: ButtonSpec = { action: 'printLabel', title: '打印标签', titleEn: 'Print labels' };

/** The screen of a declared record kind, with the usual record buttons. */
const declaredScreen = (decl: RecordKindDecl): MenuTemplate => screen(recordMenuName(decl), decl.label.zh, decl.label.en, decl.icon, [...RECORD_ACTIONS]);

/** The screen of one declared kind, placed by hand in its menu (and left out of `declaredScreens`). */
function placedScreen(kind: string): MenuTemplate {
  const decl = RECORD_KINDS.find((d) => d.kind === kind);
  if (!decl) throw new Error(`menu template: no declared record kind "${kind}"`);
  return declaredScreen(decl);
}

/** The screen of each declared record kind of an area but those placed by hand, with the usual record buttons. */
function declaredScreens(area: RecordKindDecl['area'], placed: readonly string[] = []): MenuTemplate[] {
  return RECORD_KINDS.filter((decl) => decl.area === area && !placed.includes(decl.kind)).map(declaredScreen);
}

/** Basic records. */
const BASIC_MENU: MenuTemplate = {
  name: 'basic',
  path: '/basic',
  redirect: '/basic/material',
  icon: 'DatabaseOutlined',
  title: '基础资料',
  titleEn: 'Basic records',
  type: 'Directory',
  children: [
    screen('basic_material', '物料', 'Materials', 'AppstoreOutlined', [...ASSIGNED_RECORD_BUTTONS, PRINT_LABEL]),
    // Declared (a tree), kept where it always was: after materials.
    placedScreen('category'),
    screen('basic_supplier', '供应商', 'Suppliers', 'ShopOutlined', ASSIGNED_RECORD_BUTTONS),
    screen('basic_customer', '客户', 'Customers', 'ContactsOutlined', ASSIGNED_RECORD_BUTTONS),
    screen('basic_stock', '仓库', 'Warehouses', 'InboxOutlined', ASSIGNED_RECORD_BUTTONS),
    screen('basic_location', '库位', 'Storage locations', 'EnvironmentOutlined', [...RECORD_BUTTONS, PRINT_LABEL]),
    screen('basic_bom', '物料清单', 'Bills of materials', 'PartitionOutlined', RECORD_BUTTONS),
    // The declared records (packages/contract/src/records): brands, attributes, fee and pay types, units, processes.
    ...declaredScreens('basic', ['category']),
    // Districts of partner addresses: a tree without import, export or enable.
    screen('basic_district', '地区', 'Districts', 'GlobalOutlined', ['add', 'update', 'delete']),
  ],
};

/** People (人事): the attendance records (declared), the clock-in and the month's report (docs/people.md). */
const PEOPLE_MENU: MenuTemplate = {
  name: 'people',
  path: '/people',
  redirect: '/people/clock',
  icon: 'IdcardOutlined',
  title: '人事管理',
  titleEn: 'People',
  type: 'Directory',
  children: [
    screen('people_clock', '考勤打卡', 'Clock in', 'AimOutlined', [{ action: 'add', title: '打卡', titleEn: 'Clock in' }]),
    screen('people_report', '考勤月报', 'Attendance report', 'BarChartOutlined', ['export']),
    ...declaredScreens('people'),
    // Replacement clock-in requests: a bill type of the area (the bill kit's screen), in this directory.
    ...billScreens(BILL_TYPES.filter((decl) => decl.area === 'people')),
  ],
};

/** The mall (issue 11): categories, products, orders, proxy orders, lottery, feedback. */
const MALL_MENU: MenuTemplate = {
  name: 'mall',
  path: '/mall',
  redirect: '/mall/product',
  icon: 'ShoppingOutlined',
  title: '商城管理',
  titleEn: 'Mall',
  type: 'Directory',
  children: [
    screen('mall_category', '商品分类', 'Product categories', 'ClusterOutlined', ['add', 'update', 'delete', 'enable', 'export']),
    screen('mall_product', '商品管理', 'Products', 'ShoppingOutlined', ['add', 'update', 'delete', { action: 'shelves', title: '上下架', titleEn: 'On / off shelf' }, 'export']),
    screen('mall_order', '订单管理', 'Orders', 'ProfileOutlined', [
      { action: 'pay', title: '确认收款', titleEn: 'Confirm payment' },
      { action: 'ship', title: '发货', titleEn: 'Ship' },
      { action: 'complete', title: '确认收货', titleEn: 'Confirm receipt' },
      { action: 'cancel', title: '取消订单', titleEn: 'Cancel' },
      { action: 'refund', title: '申请退款', titleEn: 'Request refund' },
      { action: 'refund_audit', title: '退款审核', titleEn: 'Review refund' },
      { action: 'refund_confirm', title: '确认退款', titleEn: 'Confirm refund' },
      { action: 'remark', title: '订单备注', titleEn: 'Remark' },
      'export',
    ]),
    screen('mall_proxyOrder', '代客下单', 'Proxy orders', 'ShoppingCartOutlined', ['add', 'export']),
    screen('mall_lottery', '抽奖活动', 'Lottery', 'GiftOutlined', [
      'add',
      'update',
      'delete',
      'enable',
      { action: 'draw', title: '代客抽奖', titleEn: 'Draw for a customer' },
      'export',
      { action: 'record_export', title: '导出抽奖记录', titleEn: 'Export draws' },
    ]),
    screen('mall_feedback', '用户反馈', 'Feedback', 'CommentOutlined', [
      'add',
      { action: 'reply', title: '回复', titleEn: 'Reply' },
      { action: 'status', title: '处理状态', titleEn: 'Status' },
      'delete',
      'export',
    ]),
  ],
};

/**
 * The bill screens, from the bill-type registry: one directory per area (purchase, sale, stock) with a
 * screen per bill type and its buttons (`<area>_<route>_<action>`, the codes its routes check). Each
 * screen's component (`purchase/order/index`) opens the web's one bill kit (web/src/views/bills).
 */
const AREA_ICONS: Record<BillArea, string> = { purchase: 'ShoppingOutlined', sale: 'ShopOutlined', stock: 'InboxOutlined', production: 'ToolOutlined', outsourcing: 'ShareAltOutlined', quality: 'SafetyCertificateOutlined', finance: 'AccountBookOutlined', people: 'IdcardOutlined', office: 'CarryOutOutlined' };
/** Areas whose bills sit in a directory of their own menu (people: beside attendance). */
const OWN_DIRECTORY: readonly BillArea[] = ['people'];

export function billMenus(): MenuTemplate[] {
  return billTypesByArea().filter(({ area }) => !OWN_DIRECTORY.includes(area)).map(({ area, types }) => ({
    name: area,
    path: `/${area}`,
    redirect: `/${area}/${types[0].route}`,
    icon: AREA_ICONS[area],
    title: BILL_AREA_LABELS[area].zh,
    titleEn: BILL_AREA_LABELS[area].en,
    type: 'Directory' as const,
    children: [
      ...billScreens(types),
      ...(area === 'stock' ? STOCK_REPORTS : []),
      ...(area === 'finance' ? FINANCE_SCREENS : []),
      ...(area === 'production' ? PRODUCTION_SCREENS : []),
      ...(area === 'quality' ? QUALITY_SCREENS : []),
      ...(area === 'outsourcing' ? OUTSOURCING_SCREENS : []),
      ...(area === 'office' ? OFFICE_SCREENS : []),
    ],
  }));
}

/** A screen per bill type, with the type's buttons. */
function billScreens(types: readonly BillTypeDecl[]): MenuTemplate[] {
  return types.map((decl) => ({
    ...screen(billMenuName(decl), decl.label.zh, decl.label.en, decl.icon, []),
    children: [
      ...billButtons(decl).map((b) => ({ name: b.code, title: b.label.zh, titleEn: b.label.en, type: 'Button' as const })),
      // Buttons the type's module serves (a task's start, progress note, completion, termination).
      ...(decl.ownButtons ?? []).map((b) => ({ name: `${billMenuName(decl)}_${b.action}`, title: b.label.zh, titleEn: b.label.en, type: 'Button' as const })),
    ],
  }));
}

/** The stock reports (web/src/views/stock): read by whoever has the screen; export by its button. */
const STOCK_REPORTS: MenuTemplate[] = [
  screen('stock_current', '即时库存', 'Current stock', 'DatabaseOutlined', ['export']),
  screen('stock_ledger', '库存流水', 'Stock ledger', 'UnorderedListOutlined', ['export']),
  screen('stock_summary', '收发汇总', 'In / out summary', 'BarChartOutlined', ['export']),
];

/**
 * Production's screens beside its bills: the month-end cost run (run it, cancel it, export a period's figures),
 * the shop floor's quick report (a tablet screen; the report it makes takes the process report's buttons) and the
 * statement of entrusted materials.
 */
const PRODUCTION_SCREENS: MenuTemplate[] = [
  screen('production_quickReport', '快速报工', 'Quick report', 'TabletOutlined', []),
  screen('production_cost', '成本核算', 'Cost accounting', 'CalculatorOutlined', [
    { action: 'run', title: '成本计算', titleEn: 'Run costing' },
    { action: 'cancel', title: '反核算', titleEn: 'Cancel costing' },
  ]),
  // What each customer's consignment warehouses received, consumed, returned and hold (entrusted machining).
  screen('production_entrustStatement', '受托加工材料对账', 'Entrusted materials', 'AuditOutlined', ['export']),
];

/** Quality's screens beside its inspections: the inspection templates (declared records), the pass rate and the open rejects. */
const QUALITY_SCREENS: MenuTemplate[] = [
  screen('quality_passRate', '合格率分析', 'Pass rate', 'BarChartOutlined', ['export']),
  screen('quality_openRejects', '待处理不合格品', 'Open rejects', 'WarningOutlined', ['export']),
  ...declaredScreens('quality'),
];

/** Outsourcing's screens beside its bills: what each supplier holds of the materials sent to it. */
const OUTSOURCING_SCREENS: MenuTemplate[] = [screen('outsourcing_atSupplier', '委外物料结存', 'Materials at suppliers', 'DatabaseOutlined', ['export'])];

/** Office's screens beside its tasks: the board of tasks by stage (docs/office.md). */
const OFFICE_SCREENS: MenuTemplate[] = [screen('office_taskBoard', '任务看板', 'Task board', 'ProjectOutlined', [])];

/** Base content of the customer side (swiper, agreements, business hours and slots, public system config). */
const BASE_MENU: MenuTemplate = {
  name: 'base',
  path: '/base',
  redirect: '/base/swiper',
  icon: 'PictureOutlined',
  title: '基础内容',
  titleEn: 'Base content',
  type: 'Directory',
  children: [
    screen('base_swiper', '轮播图', 'Swiper', 'PictureOutlined', ['add', 'update', 'delete', 'enable', 'export']),
    screen('base_agreement', '协议管理', 'Agreements', 'FileProtectOutlined', [{ action: 'update', title: '保存', titleEn: 'Save' }]),
    screen('base_time', '营业时间', 'Business hours', 'FieldTimeOutlined', ['add', 'update', 'delete', 'enable', 'export']),
    // Saving also needs the platform administrator (a super administrator of the platform tenant).
    screen('base_config', '系统配置', 'System config', 'SettingOutlined', [{ action: 'update', title: '保存配置', titleEn: 'Save config' }]),
    // Every tenant of the installation: only the platform tenant's super administrators are given it (core/permissions.ts).
    screen('base_tenant', '租户管理', 'Tenants', 'ShopOutlined', [
      { action: 'view', title: '查看', titleEn: 'View' },
      { action: 'enable', title: '启用禁用', titleEn: 'Enable' },
      { action: 'module', title: '模块授权', titleEn: 'Modules' },
    ]),
  ],
};

/** Service orders: all orders, mine (dispatched to me), proxy orders placed by staff. */
const SERVICE_MENU: MenuTemplate = {
  name: 'service',
  path: '/service',
  redirect: '/service/order',
  icon: 'CustomerServiceOutlined',
  title: '服务订单',
  titleEn: 'Service orders',
  type: 'Directory',
  children: [
    screen('service_staff', '服务人员', 'Service staff', 'TeamOutlined', ['add', 'update', 'delete', 'enable']),
    screen('service_order', '订单列表', 'Orders', 'ProfileOutlined', [
      { action: 'dispatch', title: '派单', titleEn: 'Dispatch' },
      { action: 'audit', title: '派单审核', titleEn: 'Audit dispatch' },
      { action: 'cancel', title: '取消', titleEn: 'Cancel' },
      { action: 'message', title: '发消息', titleEn: 'Send messages' },
      'export',
    ]),
    screen('service_myOrder', '我的订单', 'My orders', 'SolutionOutlined', [
      { action: 'start', title: '开始服务', titleEn: 'Start service' },
      { action: 'complete', title: '完成服务', titleEn: 'Complete service' },
      { action: 'message', title: '发消息', titleEn: 'Send messages' },
      'export',
    ]),
    screen('service_proxyOrder', '代客下单', 'Proxy orders', 'FormOutlined', ['add', 'export']),
  ],
};

/** Withdrawing a posted transfer (a reversal posting). */
const ABANDON: ButtonSpec = { action: 'abandon', title: '作废', titleEn: 'Withdraw' };

/**
 * Finance's screens beside its bills (payments, receipts, fees, incomes: the bill kit): fund accounts,
 * receivables and payables by partner with aging and the running ledger, prepaid and advance balances with
 * theirs, transfers, the trial balance.
 */
const FINANCE_SCREENS: MenuTemplate[] = [
  screen('finance_account', '资金账户', 'Fund accounts', 'BankOutlined', ['add', 'update', 'enable']),
  screen('finance_receivable', '应收账款', 'Receivables', 'DollarOutlined', ['export']),
  screen('finance_payable', '应付账款', 'Payables', 'CreditCardOutlined', ['export']),
  screen('finance_prepaid', '预付预收', 'Prepaid & advances', 'AccountBookOutlined', ['export']),
  screen('finance_transfer', '资金转账', 'Transfers', 'SwapOutlined', ['add', ABANDON, 'export']),
  screen('finance_trialBalance', '试算平衡表', 'Trial balance', 'CalculatorOutlined', ['export']),
];

export const MENU_TEMPLATE: MenuTemplate[] = [
  { name: 'home', path: '/home/index', component: 'home/index', icon: 'HomeOutlined', title: '首页', titleEn: 'Home', type: 'Menu', affix: true },
  {
    name: 'person',
    path: '/person',
    redirect: '/person/userInfo',
    icon: 'UserOutlined',
    title: '个人中心',
    titleEn: 'Personal center',
    type: 'Directory',
    children: [
      { name: 'person_userInfo', path: '/person/userInfo', component: 'person/userInfo', icon: 'IdcardOutlined', title: '个人信息', titleEn: 'User info', type: 'Menu' },
    ],
  },
  BASIC_MENU,
  PEOPLE_MENU,
  MALL_MENU,
  SERVICE_MENU,
  BASE_MENU,
  // Every bill type's screen is the web's one bill kit (views/bills), chosen by the menu's path.
  ...billMenus(),
  {
    name: 'system',
    path: '/system',
    redirect: '/system/department',
    icon: 'SettingOutlined',
    title: '系统管理',
    titleEn: 'System',
    type: 'Directory',
    children: [
      screen('system_department', '部门管理', 'Departments', 'ApartmentOutlined', ['add', 'update', 'delete', 'enable']),
      screen('system_menu', '菜单管理', 'Menus', 'MenuOutlined', ['add', 'update', 'delete', 'enable']),
      screen('system_role', '角色管理', 'Roles', 'SafetyCertificateOutlined', [
        'add',
        // Also sets the role's menus and buttons (PUT /admin/security/role/permission).
        'update',
        'delete',
        { action: 'update_scope', title: '数据权限', titleEn: 'Data scope' },
        { action: 'copy', title: '复制', titleEn: 'Copy' },
        { action: 'copy_batch', title: '批量复制', titleEn: 'Copy in batch' },
      ]),
      screen('system_staff', '员工管理', 'Staff', 'TeamOutlined', [
        'add',
        'update',
        'delete',
        { action: 'reset_password', title: '重置密码', titleEn: 'Reset password' },
        // Enable / disable and lock / unlock.
        'enable',
        { action: 'notify', title: '通知设置', titleEn: 'Notifications' },
      ]),
      screen('system_audit', '操作日志', 'Audit log', 'AuditOutlined', [{ action: 'view', title: '查看', titleEn: 'View' }]),
      // Imports, exports and later runs queued on the database (core/background-jobs.ts): read-only.
      screen('system_job', '后台任务', 'Background jobs', 'ScheduleOutlined', [{ action: 'view', title: '查看', titleEn: 'View' }]),
      // Office screens of the system area (printers, joint review, tenant config, messages, settings).
      // system_printer_update also allows a test print (as does system_printer_add).
      screen('system_printer', '打印机管理', 'Printers', 'PrinterOutlined', ['add', 'update', 'delete', 'enable']),
      // Print templates of the bill types: copying needs its own button; making one the default needs update.
      screen('system_printTemplate', '打印模板', 'Print templates', 'LayoutOutlined', ['add', 'update', 'delete', 'enable', { action: 'copy', title: '复制', titleEn: 'Copy' }, 'import', 'export']),
      screen('system_verify', '多级审核', 'Joint review', 'AuditOutlined', ['add', 'update', 'delete', 'enable']),
      // Saving the tenant config; also the tenant-wide column settings of every list.
      screen('system_tenant', '租户配置', 'Tenant config', 'ControlOutlined', [{ action: 'config_update', title: '保存配置', titleEn: 'Save config' }]),
      screen('system_message', '消息管理', 'Messages', 'MessageOutlined', [
        { action: 'send', title: '发送', titleEn: 'Send' },
        { action: 'delete', title: '删除', titleEn: 'Delete' },
      ]),
      screen('system_setting', '系统设置', 'System settings', 'ToolOutlined', [{ action: 'update', title: '保存设置', titleEn: 'Save settings' }]),
    ],
  },
];

/** Inserts the template entries a tenant lacks; returns how many were added. */
export async function syncMenuTemplate(tx: Tx, tenantId: number): Promise<number> {
  const existing = await tx.select({ id: menu.id, name: menu.name }).from(menu).where(eq(menu.tenantId, tenantId));
  const idByName = new Map(existing.map((m) => [m.name, m.id]));
  let added = 0;
  const walk = async (nodes: MenuTemplate[], parentId: number | null) => {
    for (const [index, node] of nodes.entries()) {
      let id = idByName.get(node.name);
      if (id === undefined) {
        const [row] = await tx
          .insert(menu)
          .values({
            tenantId,
            parentId,
            name: node.name,
            path: node.path ?? '',
            component: node.component ?? null,
            redirect: node.redirect ?? null,
            metaIcon: node.icon ?? null,
            metaTitle: node.title,
            metaTitleEn: node.titleEn,
            metaIsAffix: node.affix ?? false,
            metaIsHide: node.hide ?? false,
            metaIsFull: node.full ?? false,
            metaIsKeepAlive: node.keepAlive ?? true,
            menuType: node.type,
            sort: (index + 1) * 10,
            isDefault: true,
          })
          .returning({ id: menu.id });
        id = row.id;
        idByName.set(node.name, id);
        added++;
      }
      if (node.children) await walk(node.children, id);
    }
  };
  await walk(MENU_TEMPLATE, null);
  return added;
}

/** All button codes of the template (for tests and the super role). */
export function templateButtonCodes(nodes: MenuTemplate[] = MENU_TEMPLATE): string[] {
  return nodes.flatMap((n) => [...(n.type === 'Button' ? [n.name] : []), ...templateButtonCodes(n.children ?? [])]);
}

export async function menuIdsByName(tx: Tx, tenantId: number, names: string[]) {
  if (!names.length) return [];
  return tx.select({ id: menu.id, name: menu.name }).from(menu).where(and(eq(menu.tenantId, tenantId), inArray(menu.name, names)));
}
