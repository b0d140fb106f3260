import { and, eq } from 'drizzle-orm';
import { AgreementKind, type AgreementRow, type AgreementSave } from '@p8/contract/base';
import { admin, agreement } from '../../db/schema/index.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/*
 * The user agreement and the privacy policy the customer side shows. Their HTML arrives sanitised: the
 * contract's `richText` field runs the server's allow-list sanitiser while the request is validated, so
 * whatever the editor (or any client) sends, only safe markup is stored.
 */

const DEFAULT_TITLES: Record<AgreementKind, string> = { user: '用户协议', privacy: '隐私政策' };

async function rows(ctx: ServiceContext) {
  return ctx.tx
    .select({ kind: agreement.kind, title: agreement.title, content: agreement.content, updatedAt: agreement.updatedAt, name: admin.realName, account: admin.name })
    .from(agreement)
    .leftJoin(admin, and(eq(admin.tenantId, agreement.tenantId), eq(admin.id, agreement.updatedBy)))
    .where(eq(agreement.tenantId, ctx.tenantId));
}

export async function listAgreements(ctx: ServiceContext): Promise<AgreementRow[]> {
  const stored = new Map((await rows(ctx)).map((r) => [r.kind, r]));
  return AgreementKind.map((kind) => {
    const r = stored.get(kind);
    return r
      ? { kind, title: r.title, content: r.content, updatedAt: r.updatedAt.toISOString(), updatedByName: r.name || r.account || '' }
      : { kind, title: DEFAULT_TITLES[kind], content: '', updatedAt: null, updatedByName: '' };
  });
}

async function getAgreement(ctx: ServiceContext, kind: AgreementKind): Promise<AgreementRow> {
  return (await listAgreements(ctx)).find((a) => a.kind === kind)!;
}

export async function saveAgreement(ctx: ServiceContext, { kind, title, content }: AgreementSave): Promise<AgreementRow> {
  const before = await getAgreement(ctx, kind);
  const now = new Date();
  await ctx.tx
    .insert(agreement)
    .values({ tenantId: ctx.tenantId, kind, title, content, updatedBy: ctx.account.adminId, updatedAt: now })
    .onConflictDoUpdate({ target: [agreement.tenantId, agreement.kind], set: { title, content, updatedBy: ctx.account.adminId, updatedAt: now } });
  // The texts can be long: the audit entry says what changed, not the whole HTML twice.
  ctx.audit({
    action: 'update',
    entity: 'agreement',
    entityId: kind,
    detail: { titleBefore: before.title, titleAfter: title, contentChanged: before.content !== content, length: content.length },
  });
  return getAgreement(ctx, kind);
}
