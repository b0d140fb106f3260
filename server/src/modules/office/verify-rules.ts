import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AuditType, VerifyRuleCreate, VerifyRuleRow, VerifyRuleUpdate } from '@p8/contract/office';
import type { Tx } from '../../db/connection.ts';
import { admin, tenant, verifyRule, verifyRuleReviewer } from '../../db/schema/index.ts';
import { changes } from '../../core/audit.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllFound } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { assertStaffOfTenant } from './staff.ts';
import { parseTenantConfig } from '../../core/tenant-config.ts';

/*
 * Joint review configuration: which bill types need review, AnyVerify (one reviewer suffices) or
 * AllVerify (all must review), optionally in the reviewers' order. The tenant config's `openVerifyBill`
 * is derived from the enabled rules and rewritten by every change here, in the same transaction.
 */
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
  return rules.map((rule) => {
    const own = reviewers.filter((r) => r.ruleId === rule.id);
    return {
      id: rule.id,
      billType: rule.billType,
      auditType: rule.auditType as AuditType,
      sequential: rule.sequential,
      enabled: rule.enabled,
      remark: rule.remark,
      reviewers: own.map((r) => ({ adminId: r.adminId, name: r.name ?? '', realName: r.realName ?? '', sort: r.sort })),
      reviewerIds: own.map((r) => r.adminId),
      createdAt: rule.createdAt.toISOString(),
      updatedAt: rule.updatedAt.toISOString(),
    };
  });
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

/**
 * Rewrites the tenant config's `openVerifyBill` from the enabled rules, in one update of the tenant row.
 * When a rule comes into force (a bill type joins the list) and the tenant's `autoOpenFlow` is on, joint
 * review itself (`openVerify`) is turned on too: a rule just set up is meant to apply. A change that brings
 * no type into force (a rule edited, disabled or deleted) leaves `openVerify` as the administrator set it.
 */
export async function syncOpenVerifyBill(tx: Tx, tenantId: number): Promise<{ list: string[]; opened: boolean }> {
  const enabled = await tx
    .select({ billType: verifyRule.billType })
    .from(verifyRule)
    .where(and(eq(verifyRule.tenantId, tenantId), eq(verifyRule.enabled, true)))
    .orderBy(asc(verifyRule.billType));
  const list = enabled.map((r) => r.billType);
  const [row] = await tx.select({ config: tenant.config }).from(tenant).where(eq(tenant.id, tenantId)).for('no key update');
  const config = parseTenantConfig(row?.config);
  const opened = config.autoOpenFlow && !config.openVerify && list.some((type) => !config.openVerifyBill.includes(type));
  const patch = opened ? { openVerifyBill: list, openVerify: true } : { openVerifyBill: list };
  await tx
    .update(tenant)
    .set({ config: sql`coalesce(${tenant.config}, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb`, updatedAt: new Date() })
    .where(eq(tenant.id, tenantId));
  return { list, opened };
}

/** Syncs `openVerifyBill` after a rule change; a change that turned joint review on says so in the audit log. */
async function syncAfterChange(ctx: ServiceContext) {
  const { opened } = await syncOpenVerifyBill(ctx.tx, ctx.tenantId);
  if (opened) ctx.audit({ action: 'update', entity: 'tenant-config', entityId: ctx.tenantId, detail: changes({ openVerify: false }, { openVerify: true }) });
}

async function assertAllExist(ctx: ServiceContext, ids: number[]) {
  const found = await ctx.tx
    .select({ id: verifyRule.id, billType: verifyRule.billType })
    .from(verifyRule)
    .where(and(eq(verifyRule.tenantId, ctx.tenantId), inArray(verifyRule.id, ids)));
  assertAllFound(ids, found, 'VerifyRuleNotExist');
  return found;
}

export async function listVerifyRules(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(verifyRule.tenantId, ctx.tenantId)]);
  const page = await runPage(parsed, ctx.tx.select().from(verifyRule).$dynamic(), ctx.tx.select(countAll()).from(verifyRule).$dynamic());
  return { data: await withReviewers(ctx.tx, ctx.tenantId, page.data), pagination: page.pagination };
}

export async function getVerifyRule(ctx: ServiceContext, id: number): Promise<VerifyRuleRow> {
  const [row] = await withReviewers(ctx.tx, ctx.tenantId, [await findRule(ctx.tx, ctx.tenantId, id)]);
  return row;
}

/** Adds a rule (one per bill type). */
export async function createVerifyRule(ctx: ServiceContext, body: VerifyRuleCreate): Promise<VerifyRuleRow> {
  const { reviewerIds, ...fields } = body;
  await assertBillTypeFree(ctx.tx, ctx.tenantId, fields.billType);
  const [created] = await ctx.tx
    .insert(verifyRule)
    .values({ ...fields, remark: fields.remark ?? null, tenantId: ctx.tenantId })
    .returning();
  await setReviewers(ctx.tx, ctx.tenantId, created.id, reviewerIds);
  await syncAfterChange(ctx);
  const [row] = await withReviewers(ctx.tx, ctx.tenantId, [created]);
  return row;
}

export async function updateVerifyRule(ctx: ServiceContext, body: VerifyRuleUpdate): Promise<VerifyRuleRow> {
  const { id, reviewerIds, ...fields } = body;
  await findRule(ctx.tx, ctx.tenantId, id);
  await assertBillTypeFree(ctx.tx, ctx.tenantId, fields.billType, id);
  const [updated] = await ctx.tx
    .update(verifyRule)
    .set({ ...fields, remark: fields.remark ?? null, updatedAt: new Date() })
    .where(and(eq(verifyRule.tenantId, ctx.tenantId), eq(verifyRule.id, id)))
    .returning();
  await setReviewers(ctx.tx, ctx.tenantId, id, reviewerIds);
  await syncAfterChange(ctx);
  const [row] = await withReviewers(ctx.tx, ctx.tenantId, [updated]);
  return row;
}

export async function deleteVerifyRules(ctx: ServiceContext, ids: number[]) {
  await assertAllExist(ctx, ids);
  await ctx.tx.delete(verifyRuleReviewer).where(and(eq(verifyRuleReviewer.tenantId, ctx.tenantId), inArray(verifyRuleReviewer.ruleId, ids)));
  await ctx.tx.delete(verifyRule).where(and(eq(verifyRule.tenantId, ctx.tenantId), inArray(verifyRule.id, ids)));
  await syncAfterChange(ctx);
}

export async function enableVerifyRules(ctx: ServiceContext, ids: number[], enabled: boolean) {
  await assertAllExist(ctx, ids);
  await ctx.tx.update(verifyRule).set({ enabled, updatedAt: new Date() }).where(and(eq(verifyRule.tenantId, ctx.tenantId), inArray(verifyRule.id, ids)));
  await syncAfterChange(ctx);
}
