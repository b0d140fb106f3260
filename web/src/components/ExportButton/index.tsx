import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
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

/**
 * Exports the current query of a list: POST `path` with the query as the JSON body, then saves the
 * file. While it runs the button spins and a "exporting…" message shows; failures are shown by the
 * HTTP client.
 */
export default function ExportButton({ path, params, fileName, children, icon, ...rest }: ExportButtonProps) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);

  const run = async () => {
    if (loading) return;
    const body = typeof params === 'function' ? params() : (params ?? {});
    const key = `export:${path}`;
    setLoading(true);
    feedback.message.loading({ content: t('kit.export.exporting'), key, duration: 0 });
    try {
      await http.exportFile(path, body, { noLoading: true, timeout: 5 * 60_000, fileName });
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
