import type { Label } from './bills/status.ts';
import { z } from 'zod';
import { nameText, storableText } from './text.ts';
import { passwordPattern, phonePattern } from './auth.ts';
import { idSchema, idsSchema } from './common.ts';
import { MenuType, type MenuItem } from './menu.ts';

/**
 * System administration, security area (system screens): departments, menus, roles,
 * staff accounts and the audit log, under /api/admin/security. Shared by the server routes and the web
 * forms. A create payload's shape marks the optional fields; an update payload is the same fields, all
 * optional, plus `id` — a field left out keeps its stored value.
 */

const id = z.number().int().positive();
const sort = z.number().int().min(0).max(999_999);
const remark = storableText().trim().max(500);
const email = z.union([z.literal(''), z.email({ message: 'EmailFormatError' })]);
const mobile = z.union([z.literal(''), storableText().regex(phonePattern, { message: 'PhoneFormatError' })]);
/** A department's phone may be a landline or an extension. */
const officePhone = z.union([z.literal(''), storableText().regex(/^[0-9+\-() ]{3,30}$/, { message: 'PhoneFormatError' })]);

export { enableSchema, idParamsSchema, idsSchema, type Enable, type Ids } from './common.ts';

// ---------------------------------------------------------------- departments

const deptShape = {
  parentId: id.nullable().optional(),
  name: storableText({ error: 'PleaseInputDeptName' }).trim().min(1, { message: 'PleaseInputDeptName' }).max(50),
  /** A staff member of the tenant. */
  leaderId: id.nullable().optional(),
  phone: officePhone.optional(),
  email: email.optional(),
  sort: sort.optional(),
  remark: remark.optional(),
};
export const deptCreateSchema = z.object(deptShape);
export const deptUpdateSchema = z.object(deptShape).partial().extend({ id });
export type DeptCreate = z.infer<typeof deptCreateSchema>;
export type DeptUpdate = z.infer<typeof deptUpdateSchema>;

export interface Dept {
  id: number;
  parentId: number | null;
  parentName: string | null;
  name: string;
  leaderId: number | null;
  leaderName: string | null;
  phone: string;
  email: string;
  sort: number;
  remark: string;
  enabled: boolean;
  /** The tenant's default department: undeletable. */
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}
export interface DeptNode extends Dept {
  children?: DeptNode[];
}

// ---------------------------------------------------------------- menus

const menuShape = {
  parentId: id.nullable().optional(),
  path: storableText().trim().max(200).optional(),
  /** Route name of a screen, or the button code of a Button (e.g. system_role_add); unique per tenant. */
  name: z
    .string({ error: 'PleaseInputMenuName' })
    .trim()
    .min(1, { message: 'PleaseInputMenuName' })
    .max(100)
    .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { message: 'ParamError' }),
  redirect: storableText().trim().max(200).nullable().optional(),
  component: storableText().trim().max(200).nullable().optional(),
  metaIcon: storableText().trim().max(100).nullable().optional(),
  metaTitle: nameText(100),
  /** Defaults to metaTitle. */
  metaTitleEn: storableText().trim().max(100).optional(),
  metaActiveMenu: storableText().trim().max(200).nullable().optional(),
  metaIsLink: storableText().trim().max(500).nullable().optional(),
  metaIsHide: z.boolean().optional(),
  metaIsFull: z.boolean().optional(),
  metaIsAffix: z.boolean().optional(),
  metaIsKeepAlive: z.boolean().optional(),
  menuType: z.enum(MenuType),
  sort: sort.optional(),
};
export const menuCreateSchema = z.object(menuShape);
export const menuUpdateSchema = z.object(menuShape).partial().extend({ id });
export type MenuCreate = z.infer<typeof menuCreateSchema>;
export type MenuUpdate = z.infer<typeof menuUpdateSchema>;

/** A menu row as the menu screen sees it: every field of a menu item plus its state. */
export interface MenuRow extends MenuItem {
  enabled: boolean;
  /** Created from the template: undeletable, and its name (route name / button code) and type are fixed. */
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
  children?: MenuRow[];
}

// ---------------------------------------------------------------- roles

/** Data scope of a role: all data, custom departments, own department, own data only. */
export const DataScope = ['All', 'Custom', 'Dept', 'Self'] as const;
export type DataScope = (typeof DataScope)[number];

const roleKey = z
  .string({ error: 'PleaseInputRoleKey' })
  .trim()
  .min(1, { message: 'PleaseInputRoleKey' })
  .max(50)
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { message: 'ParamError' });
const roleName = storableText({ error: 'PleaseInputRoleName' }).trim().min(1, { message: 'PleaseInputRoleName' }).max(50);

const roleShape = { roleKey, roleName, sort: sort.optional(), remark: remark.optional() };
export const roleCreateSchema = z.object(roleShape);
export const roleUpdateSchema = z.object(roleShape).partial().extend({ id });
export type RoleCreate = z.infer<typeof roleCreateSchema>;
export type RoleUpdate = z.infer<typeof roleUpdateSchema>;

/** PUT /admin/security/role/copy: a new role with the source's data scope and permissions. */
export const roleCopySchema = z.object({ id, roleKey, roleName });
/** PUT /admin/security/role/copy/batch: copies named `<name> (copy)` with unique keys `<key>_copy[N]`. */
export const roleCopyBatchSchema = idsSchema;
/** PUT /admin/security/role/scope: `deptIds` only for Custom (at least one). */
export const roleScopeSchema = z.object({
  id,
  dataScope: z.enum(DataScope, { error: 'PleaseSelectDataScope' }),
  deptIds: z.array(id).max(1000).default([]),
});
/** PUT /admin/security/role/permission: menu and button ids; a button's parent screens are granted with it. */
export const rolePermissionSchema = z.object({ id, menuIds: z.array(id).max(5000) });
export type RoleCopy = z.infer<typeof roleCopySchema>;
export type RoleScope = z.infer<typeof roleScopeSchema>;
export type RolePermission = z.infer<typeof rolePermissionSchema>;

export interface Role {
  id: number;
  roleKey: string;
  roleName: string;
  /** The super administrator role: every permission, none can be set. */
  isSuper: boolean;
  /** Undeletable. */
  isDefault: boolean;
  dataScope: DataScope;
  /** Departments of the Custom scope. */
  deptIds: number[];
  sort: number;
  remark: string;
  enabled: boolean;
  /** Staff holding the role (a role with users cannot be deleted). */
  userCount: number;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------- staff

/** Login names: a letter, then 4-20 letters, digits or underscores (as at registration). */
export const accountNamePattern = /^[A-Za-z][A-Za-z0-9_]{3,19}$/;

const staffShape = {
  name: storableText({ error: 'PleaseInputAccount' }).trim().regex(accountNamePattern, { message: 'AccountFormatError' }),
  realName: storableText({ error: 'PleaseInputRealName' }).trim().min(1, { message: 'PleaseInputRealName' }).max(30),
  /** Defaults to realName. */
  nickName: storableText().trim().max(30).optional(),
  /** 0 unknown, 1 male, 2 female */
  sex: z.number().int().min(0).max(2).optional(),
  avatar: storableText().trim().max(500).optional(),
  phone: mobile.optional(),
  email: email.optional(),
  deptId: z.number({ error: 'PleaseSelectDept' }).int().positive(),
  /** At least one role. */
  roleIds: z.array(id, { error: 'PleaseSelectRole' }).min(1, { message: 'PleaseSelectRole' }).max(50),
  remark: remark.optional(),
};
export const staffCreateSchema = z
  .object(staffShape)
  .extend({ password: storableText({ error: 'PleaseInputPassword' }).regex(passwordPattern, { message: 'PasswordFormatError' }) });
export const staffUpdateSchema = z.object(staffShape).partial().extend({ id });
export type StaffCreate = z.infer<typeof staffCreateSchema>;
export type StaffUpdate = z.infer<typeof staffUpdateSchema>;

/** PUT /admin/security/admin/newOrderNotify and /updateSmsNotify */
export const staffNotifySchema = z.object({ id, enabled: z.boolean() });
/** PUT /admin/security/admin/reset: sets a new password and signs the account out everywhere. */
export const staffResetPasswordSchema = z.object({
  id,
  password: storableText({ error: 'PleaseInputNewPassword' }).regex(passwordPattern, { message: 'PasswordFormatError' }),
});
/** PUT /admin/security/admin/lock: lock or unlock accounts (a locked account cannot sign in). */
export const staffLockSchema = idsSchema.extend({ locked: z.boolean() });
export type StaffNotify = z.infer<typeof staffNotifySchema>;
export type StaffResetPassword = z.infer<typeof staffResetPasswordSchema>;
export type StaffLock = z.infer<typeof staffLockSchema>;

/** A staff account as the staff screen sees it; the password hash never leaves the server. */
export interface Staff {
  id: number;
  name: string;
  realName: string;
  nickName: string;
  sex: number;
  avatar: string;
  phone: string;
  email: string;
  deptId: number | null;
  deptName: string | null;
  roleIds: number[];
  roles: Array<{ id: number; roleKey: string; roleName: string }>;
  enabled: boolean;
  isLock: boolean;
  /** The tenant's default administrator: cannot be deleted or disabled. */
  isDefault: boolean;
  newOrderNotify: boolean;
  smsNotify: boolean;
  remark: string;
  lastLoginAt: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}

/*
 * GET /admin/security/admin filters, beyond paging: `name`, `realName`, `phone` (contains), `deptId`
 * (comma list; with `includeChild=1` their sub-departments too), `roleId`, `enabled`, `isLock`; sorts
 * `idSort`, `nameSort`, `realNameSort`, `phoneSort`, `createdAtSort`, `lastLoginAtSort`.
 */

// ---------------------------------------------------------------- audit log

/** GET /admin/security/audit filters: `action`, `entity`, `adminName` (contains), `start` / `end`. */
export interface AuditEntry {
  id: number;
  adminId: number | null;
  adminName: string;
  /** create | update | delete | enable | disable | lock | unlock | copy | scope | permission | reset-password | notify */
  action: string;
  /** dept | menu | role | staff | … */
  entity: string;
  entityId: string | null;
  detail: unknown;
  ip: string | null;
  createdAt: string;
}

/** A background job's state (server core/background-jobs.ts): queued → running → succeeded | failed. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A background job as the job list and the screens that started one show it. */
export interface BackgroundJobView {
  id: number;
  /** import | export | … (each kind's name is translated by the web: `job.kind.<kind>`). */
  kind: string;
  /** What the job works on: the route of an import or export. */
  subject: string;
  /** The title of the screen it works on (an import's or export's list), when known: the list says "Export: Sale orders". */
  title: Label | null;
  /** The file it works on or made: an import's workbook as uploaded, an export's workbook. */
  fileName: string | null;
  status: JobStatus;
  progress: { done: number; total: number | null };
  /** The kind's outcome once succeeded (an import's summary, an export's file). */
  result: unknown;
  /** A catalogued error key once failed. */
  errorKey: string | null;
  attempts: number;
  createdBy: number;
  createdByName: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** `POST /api/admin/system/jobs/export`: the export route's path (as the export button calls it) and the list's query. */
export const exportJobSchema = z.object({
  path: z.string().min(1).max(300),
  query: z.record(z.string(), z.unknown()).default({}),
});
export type ExportJobInput = z.infer<typeof exportJobSchema>;

/** `POST /api/admin/system/jobs/import?path=…` (multipart "file"): the import route's path, as the import dialog calls it. */
export const importJobQuerySchema = z.object({ path: z.string().min(1).max(300) });

/** `POST /api/admin/system/jobs/file`: the job whose file to download. */
export const jobFileSchema = z.object({ id: idSchema });
