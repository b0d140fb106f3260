import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clearDataSchema, PASSWORD_REGEX, PHONE_REGEX, registerSchema, tenantLogoffSchema } from '@p8/contract/auth';
import { TEMPLATE_KEYS, type SystemConfig, type TemplateKey } from '@p8/contract/tenant-config';
import type { Config } from '../../config.ts';
import type { Database, Tx } from '../../db/connection.ts';
import { admin, tenant } from '../../db/schema/index.ts';
import { revokeAllSessions, type AuthContext } from '../../core/auth.ts';
import { ok } from '../../core/envelope.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { withSmsCode } from '../../core/captcha.ts';
import { verifyPassword } from '../../core/passwords.ts';
import { clearTenantData } from './data-categories.ts';
import { createTenant, tenantConfigView } from './service.ts';
import { tenantSettingsRoutes } from './settings.ts';

/** Public configuration of the installation (no sign-in needed: title, logo, formats, upload type). */
export function systemConfig(config: Config): SystemConfig {
  const title = process.env.SYSTEM_TITLE ?? '后台管理系统';
  return {
    system_title: title,
    system_icon: process.env.SYSTEM_ICON ?? '/favicon.svg',
    system_upload_type: config.upload.type,
    icon: process.env.SYSTEM_ICON ?? '/favicon.svg',
    icp: process.env.SYSTEM_ICP ?? '',
    logo: process.env.SYSTEM_LOGO ?? '/logo.svg',
    name: title,
    shortName: process.env.SYSTEM_SHORT_NAME ?? 'P8',
    title,
    passwordRegex: PASSWORD_REGEX,
    passwordRegexTip: { zh: '6-20位，须同时包含字母和数字', en: '6-20 characters with both letters and digits' },
    phoneRegex: PHONE_REGEX,
    uploadDomain: config.upload.domain,
    openRegister: config.openRegister,
    openAppointment: false,
    customerServiceQrCode: process.env.CUSTOMER_SERVICE_QR ?? '',
    translateUrl: process.env.TRANSLATE_URL ?? '',
    templates: Object.fromEntries(TEMPLATE_KEYS.map((k) => [k, `/api/base/template/${k}.xlsx`])) as Record<TemplateKey, string>,
  };
}

async function assertInitialAdmin(tx: Tx, auth: AuthContext) {
  const [row] = await tx.select({ initialAdminId: tenant.initialAdminId }).from(tenant).where(eq(tenant.id, auth.tenantId));
  if (!row || row.initialAdminId !== auth.adminId) throw forbidden('OnlyInitialAdminCanOperate');
}

/** The tenant's own configuration and its two destructive operations (initial administrator only). */
export async function tenantRoutes(app: FastifyInstance, opts: { database: Database; config: Config }) {
  const { database, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  await tenantSettingsRoutes(app);

  r.get('/api/base/system/config', { config: { auth: false }, schema: { tags: ['tenant'], summary: 'Public system configuration' } }, async () =>
    ok(systemConfig(config)),
  );

  // Self-registration of a tenant from the login page, when the open-register flag allows it.
  r.post('/api/base/tenant/register', { config: { auth: false }, schema: { tags: ['tenant'], summary: 'Register a tenant', body: registerSchema } }, async (req) => {
    if (!config.openRegister) throw new BizError('RegisterClosed');
    const body = req.body;
    const created = await withSmsCode(app.shared, config, { phone: body.phone, purpose: 'register', code: body.code }, () =>
      database.withSystem(async (tx) => {
        return createTenant(tx, { tenantName: body.tenantName, adminName: body.name, password: body.password, phone: body.phone, realName: body.realName });
      }),
    );
    return ok({ tenantId: created.tenantId, name: body.name });
  });

  r.get('/api/admin/admin/tenant', { schema: { tags: ['tenant'], summary: 'The tenant configuration' } }, async (req) =>
    ok(await req.tenant((tx) => tenantConfigView(tx, req.auth.tenantId))),
  );

  r.put('/api/admin/admin/tenant/clearData', { schema: { tags: ['tenant'], summary: 'Clear business or basic data', body: clearDataSchema } }, async (req) => {
    const cleared = await req.tenant(async (tx) => {
      await assertInitialAdmin(tx, req.auth);
      return clearTenantData(tx, req.auth.tenantId, req.body.type);
    });
    req.log.info({ tenantId: req.auth.tenantId, type: req.body.type, cleared }, 'tenant data cleared');
    return ok({ cleared });
  });

  r.put('/api/admin/admin/tenant/logout', { schema: { tags: ['tenant'], summary: 'Log the tenant off', body: tenantLogoffSchema } }, async (req) => {
    await req.tenant(async (tx) => {
      await assertInitialAdmin(tx, req.auth);
      const [me] = await tx
        .select({ passwordHash: admin.passwordHash })
        .from(admin)
        .where(and(eq(admin.tenantId, req.auth.tenantId), eq(admin.id, req.auth.adminId)));
      if (!me || !(await verifyPassword(me.passwordHash, req.body.password))) throw new BizError('PasswordError');
      await tx.update(tenant).set({ isLogoff: true, enabled: false, updatedAt: new Date() }).where(eq(tenant.id, req.auth.tenantId));
    });
    await database.withSystem((tx) => revokeAllSessions(tx, req.auth.tenantId));
    return ok(null);
  });
}
