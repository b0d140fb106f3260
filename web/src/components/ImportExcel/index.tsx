import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Modal, Progress, Space, Typography, Upload, type ButtonProps } from 'antd';
import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TemplateKey } from '@p8/contract/tenant-config';
import type { BackgroundJobView } from '@p8/contract/system';
import { feedback } from '../../app/feedback.ts';
import { http, isHttpError } from '../../app/http.ts';
import { useSystemConfigStore } from '../../app/system-config.ts';
import { translateError } from '../../locales/index.ts';
import { getLanguage } from '../../stores/global.ts';
import { acceptAttribute, EXCEL_MAX_MB, EXCEL_TYPES, formatSize } from '../Upload/rules.ts';
import { xhrUpload } from '../Upload/xhr.ts';
import { checkImportFiles, importErrorLines, importOutcome, importProgressView, normalizeImportResult, type ImportJobState, type ImportResult } from './import-result.ts';

export type { ImportResult } from './import-result.ts';

/** The batch result notice lasts 4.5 s. */
export const IMPORT_NOTICE_SECONDS = 4.5;

export interface ImportExcelProps {
  open: boolean;
  onClose: () => void;
  /** The import call, e.g. `/admin/basic/brand/import` (POST multipart, field `file`). */
  importPath: string;
  /** Template link: a url, or the key of a download-template link of the system config. */
  templateUrl?: string;
  template?: TemplateKey;
  title?: ReactNode;
  maxSizeMB?: number;
  /** Told after an import that added rows: reload the list here. */
  onSuccess?: (result: ImportResult) => void;
}

/** How often the dialog asks how far the import's job is. */
const PROGRESS_POLL_MS = 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Excel import dialog: template link, one xls / xlsx file of at most 200 MB. The file is uploaded with the
 * import call's path to `POST /admin/system/jobs/import`, which queues the import as a background job (any
 * server process runs it; it is listed on system → background jobs); the dialog follows the job — a progress
 * bar while it uploads, then while the job waits and reads and writes the rows — then shows the batch result as
 * a notice for 4.5 s with counts and the row errors translated by `error.{errorMsg}`. A refused upload or a
 * failed job says "batch adding failed, re-upload" with the reason.
 */
export default function ImportExcel(props: ImportExcelProps) {
  // A fresh dialog body per opening: no file or progress left from the last import.
  return props.open ? <ImportDialog {...props} /> : null;
}

function ImportDialog({ open, onClose, importPath, templateUrl, template, title, maxSizeMB = EXCEL_MAX_MB, onSuccess }: ImportExcelProps) {
  const { t } = useTranslation();
  const templates = useSystemConfigStore((s) => s.config?.templates);
  const href = templateUrl ?? (template ? templates?.[template] : undefined);
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [job, setJob] = useState<ImportJobState | null>(null);
  const uploading = percent !== null;
  // Only the upload holds the dialog open: once the job is queued, closing leaves it running (the job list shows it).
  const holding = uploading && job === null;
  // The dialog's own life: a closed dialog stops following its job (the job goes on; the job list shows it).
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const warn = (content: string) => feedback.message.warning({ content, key: 'import-check' });

  const pick = (picked: File, batch: File[]) => {
    const violation = checkImportFiles(batch, maxSizeMB);
    if (violation) {
      if (batch.indexOf(picked) <= 0) warn(violation.key === 'tooBig' ? t('kit.import.tooBig', { size: violation.size }) : t(`kit.import.${violation.key}`));
      return Upload.LIST_IGNORE;
    }
    setFile(picked);
    return false; // keep it here until "import"
  };

  const notify = (result: ImportResult) => {
    const { lines, more } = importErrorLines(result, translateError, getLanguage());
    const outcome = importOutcome(result);
    feedback.notification[outcome]({
      title: t('kit.import.resultTitle'),
      duration: IMPORT_NOTICE_SECONDS,
      description: (
        <div data-testid="import-result">
          <div>{t('kit.import.result', { count: result.total, success: result.successCount, error: result.errorCount })}</div>
          {lines.length > 0 && (
            <ul style={{ margin: '6px 0 0', paddingInlineStart: 18, maxHeight: 220, overflow: 'auto' }}>
              {lines.map((line, i) => (
                <li key={`${line.row}-${i}`}>
                  {line.column === undefined
                    ? t('kit.import.rowError', { row: line.row, message: line.message })
                    : line.value === undefined
                      ? t('kit.import.rowColumnError', { row: line.row, column: line.column, message: line.message })
                      : t('kit.import.rowCellError', { row: line.row, column: line.column, value: line.value, message: line.message })}
                </li>
              ))}
              {more > 0 && <li>{t('kit.import.more', { count: more })}</li>}
            </ul>
          )}
        </div>
      ),
    });
  };

  const fail = (reason: string) => {
    feedback.message.error(reason ? `${t('kit.import.failed')} (${reason})` : t('kit.import.failed'));
    setPercent(null);
    setJob(null);
  };

  const run = async () => {
    if (!file) {
      warn(translateError('PleaseSelectFile'));
      return;
    }
    const form = new FormData();
    form.append('file', file, file.name);
    setJob(null);
    setPercent(0);
    let id: number;
    try {
      ({ id } = await xhrUpload<{ id: number }>({ url: `/admin/system/jobs/import?path=${encodeURIComponent(importPath)}`, data: form, silent: true, onProgress: (p) => setPercent(p.percent) }));
    } catch (error) {
      fail(isHttpError(error) && error.key !== 'ImportFailed' ? error.text : '');
      return;
    }
    setJob({ status: 'queued', progress: { done: 0, total: null } });
    while (alive.current) {
      await pause(PROGRESS_POLL_MS);
      let next: BackgroundJobView;
      try {
        next = await http.get<BackgroundJobView>(`/admin/system/jobs/${id}`, undefined, { silent: true, noLoading: true });
      } catch {
        continue; // no answer this time: the job goes on, the next look may have one
      }
      if (!alive.current) return;
      setJob(next);
      if (next.status === 'failed') {
        const key = next.errorKey ?? 'ServerError';
        const additional = (next.result as { additional?: string } | null)?.additional;
        fail(key === 'ImportFailed' ? '' : additional ? `${translateError(key)}: ${additional}` : translateError(key));
        return;
      }
      if (next.status === 'succeeded') {
        const result = normalizeImportResult(next.result as Partial<ImportResult> | null);
        notify(result);
        if (result.successCount > 0) onSuccess?.(result);
        onClose();
        return;
      }
    }
  };

  return (
    <Modal
      open={open}
      title={title ?? t('kit.import.title')}
      onCancel={holding ? undefined : onClose}
      mask={{ closable: !holding }}
      closable={!holding}
      destroyOnHidden
      modalRender={(node) => <div data-testid="import-excel">{node}</div>}
      footer={
        <Space>
          <Button onClick={onClose} disabled={holding}>
            {t('kit.form.cancel')}
          </Button>
          <Button type="primary" icon={<UploadOutlined />} loading={uploading} disabled={!file} onClick={run} data-testid="import-excel-submit">
            {t('kit.import.start')}
          </Button>
        </Space>
      }
    >
      {href && (
        <Typography.Link href={href} download target="_blank" rel="noopener" data-testid="import-excel-template">
          <DownloadOutlined /> {t('kit.import.downloadTemplate')}
        </Typography.Link>
      )}
      <Upload.Dragger
        style={{ marginTop: 12 }}
        accept={acceptAttribute(EXCEL_TYPES)}
        multiple={false}
        maxCount={1}
        disabled={uploading}
        fileList={file ? [{ uid: 'import-file', name: file.name, size: file.size, status: uploading ? 'uploading' : 'done' }] : []}
        beforeUpload={pick}
        onRemove={() => {
          setFile(null);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('kit.import.drag')}</p>
        <p className="ant-upload-hint">{t('kit.import.tip', { size: formatSize(maxSizeMB) })}</p>
      </Upload.Dragger>
      {uploading && <ImportProgressBar uploadPercent={percent ?? 0} job={job} />}
    </Modal>
  );
}

/** The bar under the file: the upload, then the job waiting, reading and writing, with row counts. */
function ImportProgressBar({ uploadPercent, job }: { uploadPercent: number; job: ImportJobState | null }) {
  const { t } = useTranslation();
  const view = importProgressView(uploadPercent, job);
  const count = (n: number) => n.toLocaleString();
  return (
    <div style={{ marginTop: 12 }} data-testid="import-excel-progress">
      <Typography.Text type="secondary">{t(`kit.import.${view.key}`, { done: count(view.done), total: count(view.total) })}</Typography.Text>
      <Progress percent={view.percent} status="active" />
    </div>
  );
}

/** A button that opens the import dialog. */
export function ImportButton({
  children,
  buttonProps,
  ...props
}: Omit<ImportExcelProps, 'open' | 'onClose'> & { children?: ReactNode; buttonProps?: ButtonProps }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="import-button" {...buttonProps}>
        {children ?? t('kit.import.title')}
      </Button>
      <ImportExcel {...props} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
