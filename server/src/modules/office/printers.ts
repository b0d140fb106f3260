import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { officeEnableSchema, officeIdsSchema, printerCreateSchema, printerTestSchema, printerUpdateSchema, type PrinterProvider, type PrinterRow } from '@p8/contract/office';
import type { Tx } from '../../db/connection.ts';
import { printer } from '../../db/schema/index.ts';
import { audit } from '../../core/audit.ts';
import { ok, paged } from '../../core/envelope.ts';
import { BizError } from '../../core/errors.ts';
import { countAll, listQuerySchema, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { maskKey, printerProvider } from './printer-provider.ts';

/** Cloud receipt printers of the tenant (system → printer). The printer key never leaves the server whole. */
const BASE = '/api/admin/system/printer';

const listSpec: ListSpec = {
  fields: {
    name: { column: printer.name, filter: 'like', sortable: true },
    sn: { column: printer.sn, filter: 'like', sortable: true },
    provider: { column: printer.provider, filter: 'eq' },
    enabled: { column: printer.enabled, filter: 'bool' },
    createdAt: { column: printer.createdAt, sortable: true },
  },
  dateColumn: printer.createdAt,
  defaultOrder: [desc(printer.id)],
};

type Printer = typeof printer.$inferSelect;

const toRow = (p: Printer): PrinterRow => ({
  id: p.id,
  name: p.name,
  provider: p.provider as PrinterProvider,
  sn: p.sn,
  printerKey: maskKey(p.printerKey),
  copies: p.copies,
  remark: p.remark,
  enabled: p.enabled,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

async function findPrinter(tx: Tx, tenantId: number, id: number): Promise<Printer> {
  const [row] = await tx.select().from(printer).where(and(eq(printer.tenantId, tenantId), eq(printer.id, id))).limit(1);
  if (!row) throw new BizError('PrinterNotExist', { additional: id });
  return row;
}

async function assertSnFree(tx: Tx, tenantId: number, provider: string, sn: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: printer.id })
    .from(printer)
    .where(and(eq(printer.tenantId, tenantId), eq(printer.provider, provider), eq(printer.sn, sn), exceptId === undefined ? undefined : ne(printer.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('PrinterSnRepeat', { additional: sn });
}

async function assertAllExist(tx: Tx, tenantId: number, ids: number[]) {
  const found = await tx.select({ id: printer.id }).from(printer).where(and(eq(printer.tenantId, tenantId), inArray(printer.id, ids)));
  const missing = ids.filter((id) => !found.some((p) => p.id === id));
  if (missing.length) throw new BizError('PrinterNotExist', { additional: missing.join(',') });
}

export async function printerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(BASE, { schema: { tags: ['printer'], summary: 'Printers (name, sn, provider, enabled filters)', querystring: listQuerySchema } }, async (req) => {
    const parsed = parseList(listSpec, req.query, [eq(printer.tenantId, req.auth.tenantId)]);
    const page = await req.tenant((tx) => runPage(parsed, tx.select().from(printer).$dynamic(), tx.select(countAll()).from(printer).$dynamic()));
    return paged(page.data.map(toRow), page.pagination);
  });

  r.get(`${BASE}/:id`, { schema: { tags: ['printer'], summary: 'A printer', params: z.object({ id: z.coerce.number().int().positive() }) } }, async (req) =>
    ok(toRow(await req.tenant((tx) => findPrinter(tx, req.auth.tenantId, req.params.id)))),
  );

  r.post(BASE, { config: { permission: 'system_printer_add' }, schema: { tags: ['printer'], summary: 'Add a printer', body: printerCreateSchema } }, async (req) => {
    const row = await req.tenant(async (tx) => {
      await assertSnFree(tx, req.auth.tenantId, req.body.provider, req.body.sn);
      const [created] = await tx
        .insert(printer)
        .values({ ...req.body, remark: req.body.remark ?? null, tenantId: req.auth.tenantId, createdBy: req.auth.adminId })
        .returning();
      await audit(tx, req, { action: 'create', entity: 'printer', entityId: created.id, detail: { ...toRow(created) } });
      return created;
    });
    return ok(toRow(row));
  });

  r.put(BASE, { config: { permission: 'system_printer_update' }, schema: { tags: ['printer'], summary: 'Update a printer (an empty printerKey keeps the stored one)', body: printerUpdateSchema } }, async (req) => {
    const { id, printerKey, ...fields } = req.body;
    const row = await req.tenant(async (tx) => {
      const before = await findPrinter(tx, req.auth.tenantId, id);
      await assertSnFree(tx, req.auth.tenantId, fields.provider, fields.sn, id);
      const [updated] = await tx
        .update(printer)
        .set({ ...fields, remark: fields.remark ?? null, ...(printerKey ? { printerKey } : {}), updatedAt: new Date() })
        .where(and(eq(printer.tenantId, req.auth.tenantId), eq(printer.id, id)))
        .returning();
      await audit(tx, req, { action: 'update', entity: 'printer', entityId: id, detail: { before: toRow(before), after: toRow(updated), keyChanged: Boolean(printerKey) } });
      return updated;
    });
    return ok(toRow(row));
  });

  r.delete(BASE, { config: { permission: 'system_printer_delete' }, schema: { tags: ['printer'], summary: 'Delete printers', body: officeIdsSchema } }, async (req) => {
    await req.tenant(async (tx) => {
      await assertAllExist(tx, req.auth.tenantId, req.body.ids);
      await tx.delete(printer).where(and(eq(printer.tenantId, req.auth.tenantId), inArray(printer.id, req.body.ids)));
      await audit(tx, req, { action: 'delete', entity: 'printer', entityId: req.body.ids });
    });
    return ok(null);
  });

  r.put(`${BASE}/enable`, { config: { permission: 'system_printer_enable' }, schema: { tags: ['printer'], summary: 'Enable or disable printers', body: officeEnableSchema } }, async (req) => {
    await req.tenant(async (tx) => {
      await assertAllExist(tx, req.auth.tenantId, req.body.ids);
      await tx
        .update(printer)
        .set({ enabled: req.body.enabled, updatedAt: new Date() })
        .where(and(eq(printer.tenantId, req.auth.tenantId), inArray(printer.id, req.body.ids)));
      await audit(tx, req, { action: req.body.enabled ? 'enable' : 'disable', entity: 'printer', entityId: req.body.ids });
    });
    return ok(null);
  });

  r.post(`${BASE}/test`, { config: { permission: 'system_printer_add|system_printer_update' }, schema: { tags: ['printer'], summary: 'Print a test page through the provider', body: printerTestSchema } }, async (req) => {
    // Read in the transaction, call the provider outside it: a slow service must not hold a connection.
    const target = await req.tenant((tx) => findPrinter(tx, req.auth.tenantId, req.body.id));
    const provider = printerProvider(target.provider);
    try {
      await provider.testPrint({ name: target.name, sn: target.sn, printerKey: target.printerKey, copies: target.copies });
    } catch (error) {
      if (error instanceof BizError) throw error;
      req.log.warn({ err: error, provider: target.provider }, 'printer provider failed');
      throw new BizError('PrinterApiError', { additional: target.provider });
    }
    return ok(null);
  });
}
