import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { officeEnableSchema, officeIdsSchema, verifyRuleCreateSchema, verifyRuleUpdateSchema, type AuditType, type VerifyRuleRow } from '@p8/contract/office';
import type { Tx } from '../../db/connection.ts';
import { admin, tenant, verifyRule, verifyRuleReviewer } from '../../db/schema/index.ts';
import { audit } from '../../core/audit.ts';
import { ok, paged } from '../../core/envelope.ts';
import { BizError } from '../../core/errors.ts';
import { countAll, listQuerySchema, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { assertStaffOfTenant } from './staff.ts';

/*
 * Joint review configuration (SPEC §4): which bill types need review, AnyVerify (one reviewer suffices) or
 * AllVerify (all must review), optionally in the reviewers' order. The tenant config's `openVerifyBill`
 * is derived from the enabled rules and rewritten by every change here, in the same transaction.
 */
const BASE = '/api/admin/system/verify';

const listSpec: ListSpec = {
  fields: {
    billType: { column: verifyRule.billType, filter: 'like', sortable: true },
    auditType: { column: verifyRule.auditType, filter: 'eq' },
    enabled: { column: verifyRule.enabled, filter: 'bool' },
    createdAt: { column: verifyRule.createdAt, sortable: true },
  },
  dateColumn: verifyRule.createdAt,
  defaultOrder: [desc(verifyRule.id)],
};

type Rule = typeof verifyRule.$inferSelect;

async function withReviewers(tx: Tx, tenantId: number, rules: Rule[]): Promise<VerifyRuleRow[]> {
  if (!rules.length) return [];
  const reviewers = await tx
    .select({ ruleId: verifyRuleReviewer.ruleId, adminId: verifyRuleReviewer.adminId, sort: verifyRuleReviewer.sort, name: admin.name, realName: admin.realName })
    .from(verifyRuleReviewer)
    .leftJoin(admin, and(eq(admin.tenantId, verifyRuleReviewer.tenantId), eq(admin.id, verifyRuleReviewer.adminId)))
    .where(and(eq(verifyRuleReviewer.tenantId, tenantId), inArray(verifyRuleReviewer.ruleId, rules.map((r) => r.id))))
    .orderBy(asc(verifyRuleReviewer.sort));
  return rules.map((rule) => ({
    id: rule.id,
    billType: rule.billType,
    auditType: rule.auditType as AuditType,
    sequential: rule.sequential,
    enabled: rule.enabled,
    remark: rule.remark,
    reviewers: reviewers
      .filter((r) => r.ruleId === rule.id)
      .map((r) => ({ adminId: r.adminId, name: r.name ?? '', realName: r.realName ?? '', sort: r.sort })),
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
  }));
}

async function findRule(tx: Tx, tenantId: number, id: number): Promise<Rule> {
  const [row] = await tx.select().from(verifyRule).where(and(eq(verifyRule.tenantId, tenantId), eq(verifyRule.id, id))).limit(1);
  if (!row) throw new BizError('VerifyRuleNotExist', { additional: id });
  return row;
}

async function assertBillTypeFree(tx: Tx, tenantId: number, billType: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: verifyRule.id })
    .from(verifyRule)
    .where(and(eq(verifyRule.tenantId, tenantId), eq(verifyRule.billType, billType), exceptId === undefined ? undefined : ne(verifyRule.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('BillVerifyRuleRepeat', { additional: billType });
}

async function setReviewers(tx: Tx, tenantId: number, ruleId: number, reviewerIds: number[]) {
  await assertStaffOfTenant(tx, tenantId, reviewerIds);
  await tx.delete(verifyRuleReviewer).where(and(eq(verifyRuleReviewer.tenantId, tenantId), eq(verifyRuleReviewer.ruleId, ruleId)));
  await tx.insert(verifyRuleReviewer).values(reviewerIds.map((adminId, index) => ({ tenantId, ruleId, adminId, sort: index + 1 })));
}

/** Rewrites the tenant config's `openVerifyBill` from the enabled rules (one atomic jsonb_set). */
export async function syncOpenVerifyBill(tx: Tx, tenantId: number): Promise<string[]> {
  const enabled = await tx
    .select({ billType: verifyRule.billType })
    .from(verifyRule)
    .where(and(eq(verifyRule.tenantId, tenantId), eq(verifyRule.enabled, true)))
    .orderBy(asc(verifyRule.billType));
  const list = enabled.map((r) => r.billType);
  await tx
    .update(tenant)
    .set({ config: sql`jsonb_set(coalesce(${tenant.config}, '{}'::jsonb), '{openVerifyBill}', ${JSON.stringify(list)}::jsonb)`, updatedAt: new Date() })
    .where(eq(tenant.id, tenantId));
  return list;
}

async function assertAllExist(tx: Tx, tenantId: number, ids: number[]) {
  const found = await tx.select({ id: verifyRule.id, billType: verifyRule.billType }).from(verifyRule).where(and(eq(verifyRule.tenantId, tenantId), inArray(verifyRule.id, ids)));
  const missing = ids.filter((id) => !found.some((r) => r.id === id));
  if (missing.length) throw new BizError('VerifyRuleNotExist', { additional: missing.join(',') });
  return found;
}

export async function verifyRuleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(BASE, { schema: { tags: ['verify'], summary: 'Joint review rules with their reviewers', querystring: listQuerySchema } }, async (req) => {
    const parsed = parseList(listSpec, req.query, [eq(verifyRule.tenantId, req.auth.tenantId)]);
    const page = await req.tenant(async (tx) => {
      const result = await runPage(parsed, tx.select().from(verifyRule).$dynamic(), tx.select(countAll()).from(verifyRule).$dynamic());
      return { ...result, data: await withReviewers(tx, req.auth.tenantId, result.data) };
    });
    return paged(page.data, page.pagination);
  });

  r.get(`${BASE}/:id`, { schema: { tags: ['verify'], summary: 'A joint review rule', params: z.object({ id: z.coerce.number().int().positive() }) } }, async (req) => {
    const [row] = await req.tenant(async (tx) => withReviewers(tx, req.auth.tenantId, [await findRule(tx, req.auth.tenantId, req.params.id)]));
    return ok(row);
  });

  r.post(BASE, { config: { permission: 'system_verify_add' }, schema: { tags: ['verify'], summary: 'Add a joint review rule (billType unique)', body: verifyRuleCreateSchema } }, async (req) => {
    const { reviewerIds, ...fields } = req.body;
    const [row] = await req.tenant(async (tx) => {
      await assertBillTypeFree(tx, req.auth.tenantId, fields.billType);
      const [created] = await tx
        .insert(verifyRule)
        .values({ ...fields, remark: fields.remark ?? null, tenantId: req.auth.tenantId })
        .returning();
      await setReviewers(tx, req.auth.tenantId, created.id, reviewerIds);
      await syncOpenVerifyBill(tx, req.auth.tenantId);
      await audit(tx, req, { action: 'create', entity: 'verify-rule', entityId: created.id, detail: req.body });
      return withReviewers(tx, req.auth.tenantId, [created]);
    });
    return ok(row);
  });

  r.put(BASE, { config: { permission: 'system_verify_update' }, schema: { tags: ['verify'], summary: 'Update a joint review rule', body: verifyRuleUpdateSchema } }, async (req) => {
    const { id, reviewerIds, ...fields } = req.body;
    const [row] = await req.tenant(async (tx) => {
      const before = await findRule(tx, req.auth.tenantId, id);
      await assertBillTypeFree(tx, req.auth.tenantId, fields.billType, id);
      const [updated] = await tx
        .update(verifyRule)
        .set({ ...fields, remark: fields.remark ?? null, updatedAt: new Date() })
        .where(and(eq(verifyRule.tenantId, req.auth.tenantId), eq(verifyRule.id, id)))
        .returning();
      await setReviewers(tx, req.auth.tenantId, id, reviewerIds);
      await syncOpenVerifyBill(tx, req.auth.tenantId);
      await audit(tx, req, { action: 'update', entity: 'verify-rule', entityId: id, detail: { before: { billType: before.billType, auditType: before.auditType, sequential: before.sequential, enabled: before.enabled }, after: req.body } });
      return withReviewers(tx, req.auth.tenantId, [updated]);
    });
    return ok(row);
  });

  r.delete(BASE, { config: { permission: 'system_verify_delete' }, schema: { tags: ['verify'], summary: 'Delete joint review rules', body: officeIdsSchema } }, async (req) => {
    const { ids } = req.body;
    await req.tenant(async (tx) => {
      const found = await assertAllExist(tx, req.auth.tenantId, ids);
      await tx.delete(verifyRuleReviewer).where(and(eq(verifyRuleReviewer.tenantId, req.auth.tenantId), inArray(verifyRuleReviewer.ruleId, ids)));
      await tx.delete(verifyRule).where(and(eq(verifyRule.tenantId, req.auth.tenantId), inArray(verifyRule.id, ids)));
      await syncOpenVerifyBill(tx, req.auth.tenantId);
      await audit(tx, req, { action: 'delete', entity: 'verify-rule', entityId: ids, detail: { billTypes: found.map((f) => f.billType) } });
    });
    return ok(null);
  });

  r.put(`${BASE}/enable`, { config: { permission: 'system_verify_enable' }, schema: { tags: ['verify'], summary: 'Enable or disable joint review rules', body: officeEnableSchema } }, async (req) => {
    const { ids, enabled } = req.body;
    await req.tenant(async (tx) => {
      await assertAllExist(tx, req.auth.tenantId, ids);
      await tx
        .update(verifyRule)
        .set({ enabled, updatedAt: new Date() })
        .where(and(eq(verifyRule.tenantId, req.auth.tenantId), inArray(verifyRule.id, ids)));
      await syncOpenVerifyBill(tx, req.auth.tenantId);
      await audit(tx, req, { action: enabled ? 'enable' : 'disable', entity: 'verify-rule', entityId: ids });
    });
    return ok(null);
  });
}
