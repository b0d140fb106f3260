import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paged } from '../../core/envelope.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { listAudit } from './audit-service.ts';

/** The audit log viewer (issue 3: who changed what, when): read-only, for holders of system_audit_view. */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/security/audit',
    { config: { permission: 'system_audit_view' }, schema: { tags: ['system: audit log'], summary: 'Administrative changes, newest first', querystring: listQuerySchema } },
    async (req) => {
      const page = await req.tenant((tx) => listAudit(tx, req.auth.tenantId, req.query));
      return paged(page.data, page.pagination);
    },
  );
}
