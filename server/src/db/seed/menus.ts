import { and, eq, inArray } from 'drizzle-orm';
import type { MenuType } from '@p8/contract/menu';
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

/** Buttons of the basic-record screens: every write of `/api/admin/basic/<record>` checks one of these. */
const BASIC_BUTTONS = [
  { action: 'add', title: '新增', titleEn: 'Add' },
  { action: 'update', title: '编辑', titleEn: 'Edit' },
  { action: 'delete', title: '删除', titleEn: 'Delete' },
  { action: 'enable', title: '启用禁用', titleEn: 'Enable' },
  { action: 'import', title: '导入', titleEn: 'Import' },
  { action: 'export', title: '导出', titleEn: 'Export' },
];

function basicScreen(record: string, title: string, titleEn: string, icon: string, options: { assign?: boolean; actions?: string[] } = {}): MenuTemplate {
  const buttons = BASIC_BUTTONS.filter((b) => !options.actions || options.actions.includes(b.action));
  return {
    name: `basic_${record}`,
    path: `/basic/${record}`,
    component: `basic/${record}/index`,
    icon,
    title,
    titleEn,
    type: 'Menu',
    children: [
      ...buttons.map((b) => ({ name: `basic_${record}_${b.action}`, title: b.title, titleEn: b.titleEn, type: 'Button' as const })),
      ...(options.assign ? [{ name: `basic_${record}_assign`, title: '分配', titleEn: 'Assign', type: 'Button' as const }] : []),
    ],
  };
}

/** Basic records (issue 4). */
const BASIC_MENU: MenuTemplate = {
  name: 'basic',
  path: '/basic',
  redirect: '/basic/material',
  icon: 'DatabaseOutlined',
  title: '基础资料',
  titleEn: 'Basic records',
  type: 'Directory',
  children: [
    basicScreen('material', '物料', 'Materials', 'AppstoreOutlined', { assign: true }),
    basicScreen('brand', '品牌', 'Brands', 'TagsOutlined'),
    basicScreen('category', '物料分类', 'Categories', 'ClusterOutlined'),
    basicScreen('supplier', '供应商', 'Suppliers', 'ShopOutlined', { assign: true }),
    basicScreen('customer', '客户', 'Customers', 'ContactsOutlined', { assign: true }),
    basicScreen('stock', '仓库', 'Warehouses', 'InboxOutlined', { assign: true }),
    basicScreen('location', '库位', 'Storage locations', 'EnvironmentOutlined'),
    basicScreen('attribute', '属性', 'Attributes', 'ProfileOutlined'),
    basicScreen('fee', '费用类型', 'Fee types', 'MoneyCollectOutlined'),
    basicScreen('paytype', '结算方式', 'Pay types', 'WalletOutlined'),
    basicScreen('bom', '物料清单', 'Bills of materials', 'PartitionOutlined'),
    basicScreen('unit', '单位', 'Units', 'NumberOutlined'),
    // Districts of partner addresses: a tree without import, export or enable.
    basicScreen('district', '地区', 'Districts', 'GlobalOutlined', { actions: ['add', 'update', 'delete'] }),
  ],
};

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
  {
    name: 'system',
    path: '/system',
    redirect: '/system/department',
    icon: 'SettingOutlined',
    title: '系统管理',
    titleEn: 'System',
    type: 'Directory',
    children: [
      {
        name: 'system_department',
        path: '/system/department',
        component: 'system/department/index',
        icon: 'ApartmentOutlined',
        title: '部门管理',
        titleEn: 'Departments',
        type: 'Menu',
        children: [
          { name: 'system_department_add', title: '新增', titleEn: 'Add', type: 'Button' },
          { name: 'system_department_update', title: '编辑', titleEn: 'Edit', type: 'Button' },
          { name: 'system_department_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
          { name: 'system_department_enable', title: '启用禁用', titleEn: 'Enable', type: 'Button' },
        ],
      },
      {
        name: 'system_menu',
        path: '/system/menu',
        component: 'system/menu/index',
        icon: 'MenuOutlined',
        title: '菜单管理',
        titleEn: 'Menus',
        type: 'Menu',
        children: [
          { name: 'system_menu_add', title: '新增', titleEn: 'Add', type: 'Button' },
          { name: 'system_menu_update', title: '编辑', titleEn: 'Edit', type: 'Button' },
          { name: 'system_menu_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
          { name: 'system_menu_enable', title: '启用禁用', titleEn: 'Enable', type: 'Button' },
        ],
      },
      {
        name: 'system_role',
        path: '/system/role',
        component: 'system/role/index',
        icon: 'SafetyCertificateOutlined',
        title: '角色管理',
        titleEn: 'Roles',
        type: 'Menu',
        children: [
          { name: 'system_role_add', title: '新增', titleEn: 'Add', type: 'Button' },
          // Also sets the role's menus and buttons (PUT /admin/security/role/permission).
          { name: 'system_role_update', title: '编辑', titleEn: 'Edit', type: 'Button' },
          { name: 'system_role_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
          { name: 'system_role_update_scope', title: '数据权限', titleEn: 'Data scope', type: 'Button' },
          { name: 'system_role_copy', title: '复制', titleEn: 'Copy', type: 'Button' },
          { name: 'system_role_copy_batch', title: '批量复制', titleEn: 'Copy in batch', type: 'Button' },
        ],
      },
      {
        name: 'system_staff',
        path: '/system/staff',
        component: 'system/staff/index',
        icon: 'TeamOutlined',
        title: '员工管理',
        titleEn: 'Staff',
        type: 'Menu',
        children: [
          { name: 'system_staff_add', title: '新增', titleEn: 'Add', type: 'Button' },
          { name: 'system_staff_update', title: '编辑', titleEn: 'Edit', type: 'Button' },
          { name: 'system_staff_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
          { name: 'system_staff_reset_password', title: '重置密码', titleEn: 'Reset password', type: 'Button' },
          // Enable / disable and lock / unlock.
          { name: 'system_staff_enable', title: '启用禁用', titleEn: 'Enable', type: 'Button' },
          { name: 'system_staff_notify', title: '通知设置', titleEn: 'Notifications', type: 'Button' },
        ],
      },
      {
        name: 'system_audit',
        path: '/system/audit',
        component: 'system/audit/index',
        icon: 'AuditOutlined',
        title: '操作日志',
        titleEn: 'Audit log',
        type: 'Menu',
        children: [{ name: 'system_audit_view', title: '查看', titleEn: 'View', type: 'Button' }],
      },
      // Office screens of the system area (printers, joint review, tenant config, messages, settings).
      {
        name: 'system_printer',
        path: '/system/printer',
        component: 'system/printer/index',
        icon: 'PrinterOutlined',
        title: '打印机管理',
        titleEn: 'Printers',
        type: 'Menu',
        children: [
          { name: 'system_printer_add', title: '新增', titleEn: 'Add', type: 'Button' },
          // Also allows a test print (as does system_printer_add).
          { name: 'system_printer_update', title: '编辑', titleEn: 'Edit', type: 'Button' },
          { name: 'system_printer_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
          { name: 'system_printer_enable', title: '启用禁用', titleEn: 'Enable', type: 'Button' },
        ],
      },
      {
        name: 'system_verify',
        path: '/system/verify',
        component: 'system/verify/index',
        icon: 'AuditOutlined',
        title: '多级审核',
        titleEn: 'Joint review',
        type: 'Menu',
        children: [
          { name: 'system_verify_add', title: '新增', titleEn: 'Add', type: 'Button' },
          { name: 'system_verify_update', title: '编辑', titleEn: 'Edit', type: 'Button' },
          { name: 'system_verify_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
          { name: 'system_verify_enable', title: '启用禁用', titleEn: 'Enable', type: 'Button' },
        ],
      },
      {
        name: 'system_tenant',
        path: '/system/tenant',
        component: 'system/tenant/index',
        icon: 'ControlOutlined',
        title: '租户配置',
        titleEn: 'Tenant config',
        type: 'Menu',
        children: [{ name: 'system_tenant_config_update', title: '保存配置', titleEn: 'Save config', type: 'Button' }],
      },
      {
        name: 'system_message',
        path: '/system/message',
        component: 'system/message/index',
        icon: 'MessageOutlined',
        title: '消息管理',
        titleEn: 'Messages',
        type: 'Menu',
        children: [
          { name: 'system_message_send', title: '发送', titleEn: 'Send', type: 'Button' },
          { name: 'system_message_delete', title: '删除', titleEn: 'Delete', type: 'Button' },
        ],
      },
      {
        name: 'system_setting',
        path: '/system/setting',
        component: 'system/setting/index',
        icon: 'ToolOutlined',
        title: '系统设置',
        titleEn: 'System settings',
        type: 'Menu',
        children: [{ name: 'system_setting_update', title: '保存设置', titleEn: 'Save settings', type: 'Button' }],
      },
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
