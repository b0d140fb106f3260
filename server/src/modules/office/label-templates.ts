import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import { LABEL_KIND_LABELS, labelRefusal, starterLabel, type LabelKind, type LabelPrint, type LabelTemplateChoice, type LabelTemplateCreate, type LabelTemplateUpdate } from '@p8/contract/print/label';
import type { Tx } from '../../db/connection.ts';
import { labelTemplate, location, material } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist, distinct } from '../../core/ids.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/*
 * Label templates of the tenant (materials, storage locations, boxes), kept beside the print templates and
 * under their buttons: names unique per kind, at most one default per kind (marking one takes the mark from
 * the others, a kind's first template becomes its default). The kind's starter label is always offered too.
 */

type Template = typeof labelTemplate.$inferSelect;

const toChoice = (t: Template): LabelTemplateChoice => ({ id: t.id, kind: t.kind, name: t.name, isDefault: t.isDefault, layout: t.layout });
const mine = (tenantId: number, id: number) => and(eq(labelTemplate.tenantId, tenantId), eq(labelTemplate.id, id));

async function findTemplate(tx: Tx, tenantId: number, id: number): Promise<Template> {
  const [row] = await tx.select().from(labelTemplate).where(mine(tenantId, id)).limit(1);
  if (!row) throw new BizError('LabelTemplateNotExist', { additional: id });
  return row;
}

async function assertNameFree(tx: Tx, tenantId: number, kind: LabelKind, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: labelTemplate.id })
    .from(labelTemplate)
    .where(and(eq(labelTemplate.tenantId, tenantId), eq(labelTemplate.kind, kind), eq(labelTemplate.name, name), exceptId === undefined ? undefined : ne(labelTemplate.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('LabelTemplateNameRepeat', { additional: name });
}

function assertLayout(body: LabelTemplateCreate) {
  const refusal = labelRefusal(body.kind, body.layout);
  if (refusal) throw new BizError(refusal, { additional: body.kind });
}

async function clearDefault(tx: Tx, tenantId: number, kind: LabelKind, exceptId?: number) {
  await tx
    .update(labelTemplate)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(labelTemplate.tenantId, tenantId), eq(labelTemplate.kind, kind), eq(labelTemplate.isDefault, true), exceptId === undefined ? undefined : ne(labelTemplate.id, exceptId)));
}

/** The templates labels of a kind print with: the stored ones, the default first, then the kind's starter (id null). */
export async function labelTemplatesOfKind(ctx: ServiceContext, kind: LabelKind, lang: 'zh' | 'en'): Promise<LabelTemplateChoice[]> {
  const rows = await ctx.tx
    .select()
    .from(labelTemplate)
    .where(and(eq(labelTemplate.tenantId, ctx.tenantId), eq(labelTemplate.kind, kind)))
    .orderBy(desc(labelTemplate.isDefault), asc(labelTemplate.id));
  const starter: LabelTemplateChoice = { id: null, kind, name: `${LABEL_KIND_LABELS[kind][lang]} · ${lang === 'zh' ? '标准模板' : 'standard'}`, isDefault: rows.length === 0, layout: starterLabel(kind) };
  return [...rows.map(toChoice), starter];
}

export async function createLabelTemplate(ctx: ServiceContext, body: LabelTemplateCreate): Promise<LabelTemplateChoice> {
  assertLayout(body);
  await assertNameFree(ctx.tx, ctx.tenantId, body.kind, body.name);
  const [first] = await ctx.tx.select({ id: labelTemplate.id }).from(labelTemplate).where(and(eq(labelTemplate.tenantId, ctx.tenantId), eq(labelTemplate.kind, body.kind))).limit(1);
  const isDefault = body.isDefault || !first;
  if (isDefault) await clearDefault(ctx.tx, ctx.tenantId, body.kind);
  const [created] = await ctx.tx
    .insert(labelTemplate)
    .values({ tenantId: ctx.tenantId, kind: body.kind, name: body.name, isDefault, layout: body.layout, createdBy: ctx.account.adminId })
    .returning();
  ctx.audit({ action: 'create', entity: 'label-template', entityId: created.id, detail: { kind: body.kind, name: body.name, isDefault } });
  return toChoice(created);
}

export async function updateLabelTemplate(ctx: ServiceContext, { id, ...body }: LabelTemplateUpdate): Promise<LabelTemplateChoice> {
  const before = await findTemplate(ctx.tx, ctx.tenantId, id);
  assertLayout(body);
  await assertNameFree(ctx.tx, ctx.tenantId, body.kind, body.name, id);
  if (body.isDefault) await clearDefault(ctx.tx, ctx.tenantId, body.kind, id);
  const [updated] = await ctx.tx
    .update(labelTemplate)
    .set({ kind: body.kind, name: body.name, layout: body.layout, isDefault: body.isDefault || (before.isDefault && before.kind === body.kind), updatedAt: new Date() })
    .where(mine(ctx.tenantId, id))
    .returning();
  ctx.audit({ action: 'update', entity: 'label-template', entityId: id, detail: { kind: body.kind, name: body.name, isDefault: updated.isDefault } });
  return toChoice(updated);
}

export async function deleteLabelTemplates(ctx: ServiceContext, ids: number[]) {
  const wanted = distinct(ids);
  await assertIdsExist(ctx.tx, labelTemplate, ctx.tenantId, wanted, 'LabelTemplateNotExist');
  await ctx.tx.delete(labelTemplate).where(and(eq(labelTemplate.tenantId, ctx.tenantId), inArray(labelTemplate.id, wanted)));
  ctx.audit({ action: 'delete', entity: 'label-template', entityId: wanted });
}

/**
 * Labels printed from a list (its `…_printLabel` button, checked by the route for the kinds it prints): the
 * template named must be one of the kind's (null: its starter), the records the tenant's materials or storage
 * locations; the print is audited (`label-template` / `print`: the kind, the template, how many records and
 * labels, a PDF as such). Nothing else is stored.
 */
/**
 * A print of labels recorded (audited): the template of the kind, and the records `ids` — materials or storage
 * locations, or what `assertRecords` checks instead (an inspection's boxes).
 */
export async function recordLabelPrint(ctx: ServiceContext, kinds: readonly LabelKind[], body: LabelPrint, assertRecords?: (ids: number[]) => Promise<void>): Promise<{ labels: number }> {
  if (!kinds.includes(body.kind)) throw new BizError('PleaseSelectData', { additional: body.kind });
  if (body.templateId !== null) {
    const template = await findTemplate(ctx.tx, ctx.tenantId, body.templateId);
    if (template.kind !== body.kind) throw new BizError('LabelTemplateNotExist', { additional: body.templateId });
  }
  const ids = distinct(body.ids);
  if (assertRecords) await assertRecords(ids);
  else if (body.kind === 'location') await assertIdsExist(ctx.tx, location, ctx.tenantId, ids, 'LocationNotExist');
  else await assertIdsExist(ctx.tx, material, ctx.tenantId, ids, 'MaterialNotExist');
  ctx.audit({
    action: 'print',
    entity: 'label-template',
    entityId: body.templateId ?? undefined,
    detail: { kind: body.kind, templateId: body.templateId, records: ids.length, labels: body.labels, ...(body.output === 'pdf' ? { output: 'pdf' } : {}) },
  });
  return { labels: body.labels };
}
