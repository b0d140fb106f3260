import { z } from 'zod';
import { idSchema } from './common.ts';
import { storableText } from './text.ts';

/**
 * The platform administrator's tenant screen (base → tenants): every tenant of the installation with its
 * initial administrator, users and licensed modules; enabling / disabling a tenant and setting its modules.
 */

/**
 * The module types a tenant may be licensed. A type is the area its screens and routes live under: the
 * top-level menu of that name and every route of the server module (or bill area) of that name. A type
 * the tenant's list does not hold is open, as it always was; one whose expiry has passed is closed —
 * its menus disappear and its routes answer `ModuleExpired`.
 */
export const MODULE_TYPES = ['mall', 'service', 'finance', 'production', 'outsource', 'quality', 'people', 'picture', 'crossBorder'] as const;
export type ModuleType = (typeof MODULE_TYPES)[number];

/**
 * The area a module type closes when it expires: its own name, but for outsourcing, whose licence keeps the
 * spec's type name (`outsource`) while its menu and routes are `outsourcing`.
 */
export const MODULE_AREA: Readonly<Record<ModuleType, string>> = { ...(Object.fromEntries(MODULE_TYPES.map((type) => [type, type])) as Record<ModuleType, string>), outsource: 'outsourcing' };

/** One module of a tenant as the platform sets it: `expiresAt` a date (YYYY-MM-DD, the last day it runs) or null = never. */
export const platformModuleSchema = z.object({
  type: z.enum(MODULE_TYPES),
  needCheck: z.boolean().default(false),
  expiresAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'ParamError' })
    .nullable()
    .default(null),
});
export type PlatformModule = z.infer<typeof platformModuleSchema>;

/** PUT /admin/platform/tenant/modules: the tenant's whole module list (one entry per type). */
export const tenantModulesSchema = z.object({
  id: idSchema,
  modules: z.array(platformModuleSchema).max(MODULE_TYPES.length),
});
export type TenantModules = z.infer<typeof tenantModulesSchema>;

/** GET /admin/platform/tenant: page; `name` matches the tenant's name, its administrator's account or phone; enabled. */
export const platformTenantQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  name: storableText().max(50).optional(),
  enabled: z.enum(['true', 'false']).optional(),
});
export type PlatformTenantQuery = z.infer<typeof platformTenantQuerySchema>;

export interface PlatformTenant {
  id: number;
  name: string;
  enabled: boolean;
  isLogoff: boolean;
  /** The installation's own tenant, whose super administrators run the platform: never disabled. */
  isPlatform: boolean;
  admin: { id: number; name: string; realName: string; phone: string } | null;
  users: number;
  modules: Array<{ type: string; needCheck: boolean; expiresAt: string | null; isExpired: boolean }>;
  createdAt: string;
}

/**
 * When a stored module expiry takes effect (ms since the epoch), or undefined for none. A date alone
 * (what the platform screen sets) is the last day the module runs: it closes at the next midnight, in the
 * server's time zone; a full timestamp closes at that instant.
 */
export function moduleClosesAt(expiresAt: string | null | undefined): number | undefined {
  if (!expiresAt) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) {
    const [y, m, d] = expiresAt.split('-').map(Number);
    return new Date(y, m - 1, d + 1).getTime();
  }
  const at = Date.parse(expiresAt);
  return Number.isNaN(at) ? undefined : at;
}

/** The tenant screen's menu (and, as `<name>_<action>`, its buttons): given only to the platform tenant's super administrators. */
export const PLATFORM_SCREEN = 'base_tenant';
