import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import type { BackgroundJobView } from '@p8/contract/system';
import { http, type QueryParams } from '../../app/http.ts';

export interface ExportButtonProps extends Omit<ButtonProps, 'onClick' | 'loading'> {
  /** The export call, e.g. `/admin/security/admin/export` (POST, answers an xlsx file). */
  path: string;
  /** The query to export (filters and sort of the list); a function is read at click time. */
  params?: QueryParams | (() => QueryParams);
  /** File name to save as; default the server's `Content-Disposition` name. */
  fileName?: string;
  children?: ReactNode;
}

/** How long the button waits between two looks at its export job. */
const POLL_MS = 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Exports the current query of a list as a background job: POST `/admin/system/jobs/export` with the export
 * call's `path` and the query, follows the job (queued, then exporting with its progress) and, once it
 * succeeded, downloads its workbook and saves it. The export runs in whichever server process takes it and
 * survives a restart of the one that was asked; it is listed on system → background jobs. While it runs the
 * button spins and a message says where it is; a refusal is shown by the HTTP client, a failed job by its error.
 */
export default function ExportButton({ path, params, fileName, children, icon, ...rest }: ExportButtonProps) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);

  const run = async () => {
    if (loading) return;
    const body = typeof params === 'function' ? params() : (params ?? {});
    const key = `export:${path}`;
    setLoading(true);
    feedback.message.loading({ content: t('kit.export.queued'), key, duration: 0 });
    try {
      const { id } = await http.post<{ id: number }>('/admin/system/jobs/export', { path, query: body }, { noLoading: true });
      for (let wait = 300; ; wait = POLL_MS) {
        await pause(wait);
        const job = await http.get<BackgroundJobView>(`/admin/system/jobs/${id}`, undefined, { noLoading: true });
        if (job.status === 'succeeded') break;
        if (job.status === 'failed') {
          feedback.message.error({ content: t(`error.${job.errorKey ?? 'ServerError'}`), key });
          return;
        }
        feedback.message.loading({ content: t(job.status === 'queued' ? 'kit.export.queued' : 'kit.export.exporting'), key, duration: 0 });
      }
      await http.exportFile('/admin/system/jobs/file', { id }, { noLoading: true, timeout: 5 * 60_000, fileName });
      feedback.message.success({ content: t('kit.export.done'), key });
    } catch {
      feedback.message.destroy(key);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Button icon={icon ?? <DownloadOutlined />} loading={loading} onClick={run} data-testid="export-button" {...rest}>
      {children ?? t('kit.export.button')}
    </Button>
  );
}
