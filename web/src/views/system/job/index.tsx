import { useEffect, useMemo, useRef } from 'react';
import { Card, Progress, Result, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { JOB_STATUSES, type BackgroundJobView, type JobStatus } from '@p8/contract/system';
import { billTypeName, labelOf } from '../../../components/BillNames/index.ts';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ValueEnum } from '../../../components/ProTable/index.tsx';
import type { ProTableAction } from '../../../components/ProTable/types.ts';
import { useGlobalStore } from '../../../stores/global.ts';
import { getJobs } from './api/get-jobs.ts';

const STATUS_COLOR: Record<JobStatus, string> = { queued: 'default', running: 'processing', succeeded: 'success', failed: 'error' };
/** How often the list is read again while a job on it is queued or running. */
const POLL_MS = 2000;

/** The job's progress: a bar while it runs (a count when the total is not known yet), the end state after. */
export function JobProgress({ job }: { job: Pick<BackgroundJobView, 'status' | 'progress'> }) {
  const { done, total } = job.progress;
  if (job.status === 'queued') return <span>—</span>;
  if (total === null || total === 0) return <span>{done}</span>;
  const percent = Math.min(100, Math.floor((done / total) * 100));
  return <Progress percent={job.status === 'succeeded' ? 100 : percent} size="small" status={job.status === 'failed' ? 'exception' : job.status === 'running' ? 'active' : undefined} format={() => `${done}/${total}`} />;
}

/**
 * What a job is about, in the user's language: its kind and the screen it works on, an import's workbook too —
 * "Export: Sale orders", "Import: Materials (materials.xlsx)". A job without a known screen names its subject.
 */
export function jobAbout(job: Pick<BackgroundJobView, 'kind' | 'subject' | 'title' | 'fileName'>, language: string, t: TFunction): string {
  const kind = t(`system.job.kinds.${job.kind}`, { defaultValue: job.kind });
  const title = job.title ? labelOf(job.title, language) : job.subject ? billTypeName(job.subject, language) : '';
  if (!title) return kind;
  return job.kind === 'import' && job.fileName ? t('system.job.aboutFile', { kind, title, file: job.fileName }) : t('system.job.about', { kind, title });
}

/** A succeeded job's outcome: an import's counts, an export's file name, an MRP run's suggestions. */
function jobOutcome(job: BackgroundJobView, t: TFunction): string {
  const result = job.result as { fileName?: string; total?: number; successCount?: number; errorCount?: number } | null;
  if (job.kind === 'import' && typeof result?.total === 'number') return t('kit.import.result', { count: result.total, success: result.successCount ?? 0, error: result.errorCount ?? 0 });
  if (job.kind === 'mrp') return t('system.job.mrpResult', { count: (job.result as { suggestions?: number } | null)?.suggestions ?? 0 });
  return result?.fileName ?? t('system.job.done');
}

function JobList() {
  const { t } = useTranslation();
  const language = useGlobalStore((s) => s.language);
  const table = useRef<ProTableAction<BackgroundJobView>>(undefined);
  const unfinished = useRef(false);
  // While something on the page is queued or running, the page is read again every two seconds.
  useEffect(() => {
    const timer = setInterval(() => unfinished.current && table.current?.reload(), POLL_MS);
    return () => clearInterval(timer);
  }, []);
  const statusEnum = useMemo<ValueEnum>(() => Object.fromEntries(JOB_STATUSES.map((s) => [s, { text: t(`system.job.statuses.${s}`), color: STATUS_COLOR[s] }])), [t]);
  const columns = useMemo<ProColumn<BackgroundJobView>[]>(
    () => [
      { prop: 'id', title: t('system.job.id'), width: 80 },
      { prop: 'createdAt', title: t('system.job.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange', order: 0 } },
      { prop: 'subject', title: t('system.job.subject'), width: 240, render: (_, row) => jobAbout(row, language, t) },
      {
        prop: 'status',
        title: t('system.job.status'),
        width: 110,
        valueEnum: statusEnum,
        search: { order: 1 },
        render: (_, row) => <Tag color={STATUS_COLOR[row.status]}>{t(`system.job.statuses.${row.status}`)}</Tag>,
      },
      { prop: 'progress', title: t('system.job.progress'), width: 150, render: (_, row) => <JobProgress job={row} /> },
      { prop: 'createdByName', title: t('system.job.createdBy'), width: 120 },
      { prop: 'finishedAt', title: t('system.job.finishedAt'), valueType: 'dateTime', width: 170 },
      {
        prop: 'errorKey',
        title: t('system.job.outcome'),
        width: 240,
        render: (_, row) =>
          row.status === 'failed' ? <Typography.Text type="danger">{t(`error.${row.errorKey ?? 'ServerError'}`, { defaultValue: row.errorKey ?? '' })}</Typography.Text> : row.status === 'succeeded' ? jobOutcome(row, t) : '—',
      },
      { prop: 'attempts', title: t('system.job.attempts'), width: 90 },
    ],
    [t, language, statusEnum],
  );
  return (
    <ProTable<BackgroundJobView>
      columns={columns}
      request={getJobs}
      rowKey="id"
      listType="system_job"
      actionRef={table}
      onLoad={(rows) => (unfinished.current = rows.some((row) => row.status === 'queued' || row.status === 'running'))}
      data-testid="job-table"
    />
  );
}

/** Background jobs: the tenant's imports, exports and later runs, with their state and progress (read every two seconds while one runs). */
export default function JobPage() {
  const { t } = useTranslation();
  const can = useAuth();
  return (
    <div data-testid="job-page">
      {can('system_job_view') ? (
        <JobList />
      ) : (
        <Card>
          <Result status="403" subTitle={t('system.common.noPermission')} />
        </Card>
      )}
    </div>
  );
}
