import { and, desc, eq, sql } from 'drizzle-orm';
import { hasPermission } from '@p8/contract/permission';
import type { BackgroundJobView, JobStatus } from '@p8/contract/system';
import type { Label } from '@p8/contract/bills/status';
import { iso } from '../../core/envelope.ts';
import { IMPORT_JOB } from '../../core/import-job.ts';
import { BizError } from '../../core/errors.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { callerPermissions } from '../../core/permissions.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { admin, backgroundJob } from '../../db/schema/index.ts';

/** The background jobs screen (system_job): the tenant's jobs, newest first; and one job's state for whoever started it. */

/** The job screen's read button (granting the screen's button grants the screen). */
export const JOB_SCREEN = 'system_job_view';

const jobList: ListSpec = {
  fields: {
    id: { column: backgroundJob.id, sortable: true },
    kind: { column: backgroundJob.kind, filter: 'eq' },
    subject: { column: backgroundJob.subject, filter: 'eq' },
    status: { column: backgroundJob.status, filter: 'eq' },
    createdBy: { column: backgroundJob.createdBy, filter: 'number' },
    createdAt: { column: backgroundJob.createdAt, sortable: true },
  },
  dateColumn: backgroundJob.createdAt,
  defaultOrder: [desc(backgroundJob.createdAt), desc(backgroundJob.id)],
};

const columns = {
  id: backgroundJob.id,
  kind: backgroundJob.kind,
  subject: backgroundJob.subject,
  title: sql<Label | null>`${backgroundJob.payload} -> 'title'`,
  fileName: backgroundJob.fileName,
  status: backgroundJob.status,
  progressDone: backgroundJob.progressDone,
  progressTotal: backgroundJob.progressTotal,
  result: backgroundJob.result,
  errorKey: backgroundJob.errorKey,
  attempts: backgroundJob.attempts,
  createdBy: backgroundJob.createdBy,
  createdByName: sql<string | null>`coalesce(nullif(${admin.realName}, ''), ${admin.name})`,
  createdAt: backgroundJob.createdAt,
  startedAt: backgroundJob.startedAt,
  finishedAt: backgroundJob.finishedAt,
};

type JobRow = { [K in keyof typeof columns]: unknown } & {
  id: number;
  kind: string;
  subject: string;
  title: Label | null;
  fileName: string | null;
  status: JobStatus;
  progressDone: number;
  progressTotal: number | null;
  errorKey: string | null;
  attempts: number;
  createdBy: number;
  createdByName: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

function view(row: JobRow): BackgroundJobView {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    title: row.title && typeof row.title.zh === 'string' && typeof row.title.en === 'string' ? { zh: row.title.zh, en: row.title.en } : null,
    fileName: row.fileName,
    status: row.status,
    progress: { done: row.progressDone, total: row.progressTotal },
    result: row.result ?? null,
    errorKey: row.errorKey,
    attempts: row.attempts,
    createdBy: row.createdBy,
    createdByName: row.createdByName ?? '',
    createdAt: iso(row.createdAt)!,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

const fromJobs = (ctx: ServiceContext) =>
  ctx.tx
    .select(columns)
    .from(backgroundJob)
    .leftJoin(admin, and(eq(admin.tenantId, backgroundJob.tenantId), eq(admin.id, backgroundJob.createdBy)));

export async function listJobs(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(jobList, query, [eq(backgroundJob.tenantId, ctx.tenantId)]);
  const page = await runPage(parsed, fromJobs(ctx).$dynamic(), ctx.tx.select(countAll()).from(backgroundJob).$dynamic());
  return { ...page, data: page.data.map((row) => view(row as JobRow)) };
}

/** A job's creator may always follow it (the import or export dialog); anyone else needs the job screen. */
async function assertMayRead(ctx: ServiceContext, id: number, createdBy: number) {
  if (createdBy === ctx.account.adminId) return;
  const perms = await callerPermissions(ctx.tx, ctx.account);
  if (!perms.isSuper && !hasPermission(perms.menuNames, JOB_SCREEN)) throw new BizError('DataNotExist', { additional: id });
}

/** One job's state, progress and result. */
export async function jobDetail(ctx: ServiceContext, id: number): Promise<BackgroundJobView> {
  const [row] = await fromJobs(ctx).where(and(eq(backgroundJob.tenantId, ctx.tenantId), eq(backgroundJob.id, id)));
  if (!row) throw new BizError('DataNotExist', { additional: id });
  await assertMayRead(ctx, id, row.createdBy);
  return view(row as JobRow);
}

/** The file a job made (an export's workbook) and its name. */
export async function jobFile(ctx: ServiceContext, id: number): Promise<{ bytes: Buffer; name: string }> {
  const [row] = await ctx.tx
    .select({ kind: backgroundJob.kind, createdBy: backgroundJob.createdBy, file: backgroundJob.file, fileName: backgroundJob.fileName })
    .from(backgroundJob)
    .where(and(eq(backgroundJob.tenantId, ctx.tenantId), eq(backgroundJob.id, id)));
  if (!row) throw new BizError('DataNotExist', { additional: id });
  await assertMayRead(ctx, id, row.createdBy);
  // An import's workbook is the job's input, not something it made: never handed out.
  if (!row.file || row.kind === IMPORT_JOB) throw new BizError('FileNotFound', { additional: id });
  return { bytes: Buffer.from(row.file), name: row.fileName ?? 'export.xlsx' };
}
