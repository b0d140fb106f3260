import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableText } from '@p8/contract/text';
import {
  enableSchema,
  idParamsSchema,
  idsSchema,
  staffCreateSchema,
  staffLockSchema,
  staffNotifySchema,
  staffResetPasswordSchema,
  staffUpdateSchema,
} from '@p8/contract/system';
import type { Database } from '../../db/connection.ts';
import { ok, paged } from '../../core/envelope.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { hashPassword } from '../../core/passwords.ts';
import {
  assertAccountFree,
  createStaff,
  deleteStaff,
  getStaff,
  listStaff,
  listStaffOptions,
  resetStaffPassword,
  revokeSessionsOf,
  setStaffNotify,
  setStaffState,
  updateStaff,
} from './staff-service.ts';

const tags = ['system: staff'];

/**
 * Staff accounts (system/staff, /admin/security/admin). List and detail follow the caller's
 * data scope. Checks across tenants (name, phone) and sign-outs (sessions) run on the owner connection,
 * outside the tenant transaction.
 */
export async function staffRoutes(app: FastifyInstance, opts: { database: Database }) {
  const { database } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/admin/security/admin';

  r.get(base, { schema: { tags, summary: 'Staff within the data scope, paged, with their roles', querystring: listQuerySchema } }, async (req) => {
    const page = await req.tenant((tx) => listStaff(tx, req.auth, req.query));
    return paged(page.data, page.pagination);
  });

  r.get(
    `${base}/options`,
    {
      schema: {
        tags,
        summary: 'Colleagues for pickers (receivers, reviewers): enabled staff, name and department only',
        querystring: z.object({ keyword: storableText().max(50).optional(), notInId: storableText().max(2000).optional(), limit: z.coerce.number().int().min(1).max(200).optional() }),
      },
    },
    async (req) => ok(await req.tenant((tx) => listStaffOptions(tx, req.auth, req.query))),
  );

  r.get(`${base}/:id`, { schema: { tags, summary: 'One staff member within the data scope', params: idParamsSchema } }, async (req) =>
    ok(await req.tenant((tx) => getStaff(tx, req.auth, req.params.id))),
  );

  r.post(base, { config: { permission: 'system_staff_add' }, schema: { tags, summary: 'Create a staff account', body: staffCreateSchema } }, async (req) => {
    await assertAccountFree(database, { name: req.body.name, phone: req.body.phone });
    const passwordHash = await hashPassword(req.body.password);
    return ok(await req.tenant((tx) => createStaff(tx, req, req.body, passwordHash)));
  });

  r.put(base, { config: { permission: 'system_staff_update' }, schema: { tags, summary: 'Update a staff account', body: staffUpdateSchema } }, async (req) => {
    await assertAccountFree(database, { name: req.body.name, phone: req.body.phone, self: { tenantId: req.auth.tenantId, id: req.body.id } });
    return ok(await req.tenant((tx) => updateStaff(tx, req, req.body)));
  });

  r.delete(base, { config: { permission: 'system_staff_delete' }, schema: { tags, summary: 'Delete staff accounts', body: idsSchema } }, async (req) => {
    const removed = await req.tenant((tx) => deleteStaff(tx, req, req.body.ids));
    await revokeSessionsOf(database, req.auth.tenantId, removed);
    return ok(null);
  });

  r.put(`${base}/enable`, { config: { permission: 'system_staff_enable' }, schema: { tags, summary: 'Enable or disable staff accounts', body: enableSchema } }, async (req) => {
    const shutOut = await req.tenant((tx) => setStaffState(tx, req, req.body.ids, { enabled: req.body.enabled }));
    await revokeSessionsOf(database, req.auth.tenantId, shutOut);
    return ok(null);
  });

  r.put(`${base}/lock`, { config: { permission: 'system_staff_enable' }, schema: { tags, summary: 'Lock or unlock staff accounts', body: staffLockSchema } }, async (req) => {
    const shutOut = await req.tenant((tx) => setStaffState(tx, req, req.body.ids, { locked: req.body.locked }));
    await revokeSessionsOf(database, req.auth.tenantId, shutOut);
    return ok(null);
  });

  r.put(
    `${base}/newOrderNotify`,
    { config: { permission: 'system_staff_notify' }, schema: { tags, summary: 'Switch new-order notifications', body: staffNotifySchema } },
    async (req) => {
      await req.tenant((tx) => setStaffNotify(tx, req, req.body.id, 'newOrderNotify', req.body.enabled));
      return ok(null);
    },
  );

  r.put(
    `${base}/updateSmsNotify`,
    { config: { permission: 'system_staff_notify' }, schema: { tags, summary: 'Switch SMS notifications', body: staffNotifySchema } },
    async (req) => {
      await req.tenant((tx) => setStaffNotify(tx, req, req.body.id, 'smsNotify', req.body.enabled));
      return ok(null);
    },
  );

  r.put(
    `${base}/reset`,
    { config: { permission: 'system_staff_reset_password' }, schema: { tags, summary: "Reset an account's password and sign it out", body: staffResetPasswordSchema } },
    async (req) => {
      const passwordHash = await hashPassword(req.body.password);
      await req.tenant((tx) => resetStaffPassword(tx, req, req.body.id, passwordHash));
      await revokeSessionsOf(database, req.auth.tenantId, [req.body.id]);
      return ok(null);
    },
  );
}
