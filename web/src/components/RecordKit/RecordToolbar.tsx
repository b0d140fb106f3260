import type { Key, ReactNode } from 'react';
import { Button, Popconfirm, type ButtonProps } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TemplateKey } from '@p8/contract/tenant-config';
import type { QueryParams } from '../../app/http.ts';
import { Auth } from '../Auth/index.tsx';
import ExportButton from '../ExportButton/index.tsx';
import { ImportButton } from '../ImportExcel/index.tsx';
import { codeOf, testIdOf, type RecordKey } from './record-key.ts';
import type { RecordRow } from './use-record-writes.ts';

/*
 * Toolbar buttons of a record list, each behind the record's button code (`<record>_add`, `_enable`,
 * `_delete`, `_import`, `_export`) and with the test id `<name>-<control>`.
 */

/** The primary "add" button: `<name>-add`. */
export function AddButton({ record, onClick, children }: { record: RecordKey; onClick: () => void; children?: ReactNode }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  return (
    <Auth code={codeOf(record, 'add')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid={testIdOf(record, 'add')}>
        {children ?? t('add')}
      </Button>
    </Auth>
  );
}

interface BatchButtonsProps<R> {
  record: RecordKey;
  selectedKeys: Key[];
  selectedRows: R[];
  /** Enable and disable the selected rows; no such buttons without it. */
  onEnable?: (rows: R[], enabled: boolean) => Promise<unknown>;
  onDelete?: (rows: R[]) => Promise<unknown>;
}

/**
 * "Enable selected", "Disable selected" and "Delete selected" (the last two confirmed first), disabled
 * until rows are checked: `<name>-enable-selected`, `<name>-disable-selected(-confirm)`,
 * `<name>-delete-selected(-confirm)`.
 */
export function BatchButtons<R extends RecordRow>({ record, selectedKeys, selectedRows, onEnable, onDelete }: BatchButtonsProps<R>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  const none = selectedKeys.length === 0;
  const id = (control: string) => testIdOf(record, control);
  // Rows of other pages stay selected: act on the keys, name them when their row is known.
  const rows = () => selectedKeys.map((key) => selectedRows.find((r) => r?.id === Number(key)) ?? ({ id: Number(key) } as R));
  return (
    <>
      {onEnable && (
        <Auth code={codeOf(record, 'enable')}>
          <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => void onEnable(rows(), true)} data-testid={id('enable-selected')}>
            {t('enableSelected')}
          </Button>
          <Popconfirm
            title={t('disableSelectedConfirm', { count: selectedKeys.length })}
            disabled={none}
            onConfirm={() => onEnable(rows(), false)}
            okButtonProps={{ 'data-testid': id('disable-selected-confirm') } as ButtonProps}
          >
            <Button icon={<StopOutlined />} disabled={none} data-testid={id('disable-selected')}>
              {t('disableSelected')}
            </Button>
          </Popconfirm>
        </Auth>
      )}
      {onDelete && (
        <Auth code={codeOf(record, 'delete')}>
          <Popconfirm
            title={t('deleteSelectedConfirm', { count: selectedKeys.length })}
            disabled={none}
            onConfirm={() => onDelete(rows())}
            okButtonProps={{ danger: true, 'data-testid': id('delete-selected-confirm') } as ButtonProps}
          >
            <Button danger icon={<DeleteOutlined />} disabled={none} data-testid={id('delete-selected')}>
              {t('deleteSelected')}
            </Button>
          </Popconfirm>
        </Auth>
      )}
    </>
  );
}

interface ImportProps {
  record: RecordKey;
  importPath: string;
  /** Template key of the system config, or `templateUrl` for a template outside it. */
  template?: TemplateKey;
  templateUrl?: string;
  /** Title of the import dialog; default "batch import". */
  title?: string;
  onImported: () => void;
}

/** Excel import of the record type with its template link: `<name>-import`. */
export function ImportRecordsButton({ record, importPath, template, templateUrl, title, onImported }: ImportProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  return (
    <Auth code={codeOf(record, 'import')}>
      <ImportButton
        importPath={importPath}
        template={template}
        templateUrl={templateUrl}
        title={title}
        onSuccess={() => onImported()}
        buttonProps={{ 'data-testid': testIdOf(record, 'import') } as ButtonProps}
      >
        {t('import')}
      </ImportButton>
    </Auth>
  );
}

interface ExcelButtonsProps extends ImportProps {
  exportPath: string;
  /** The list query to export, read at click time. */
  exportParams: () => QueryParams;
}


interface ExportProps {
  /** The record type: button code `<record>_export`, test id `<name>-export`. */
  record: RecordKey;
  exportPath: string;
  /** The list query to export, read at click time. */
  exportParams: () => QueryParams;
}

/** Export of the list's current query (filters and sort) as .xlsx, for who holds `<record>_export`. */
export function ExportRecordsButton({ record, exportPath, exportParams }: ExportProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  return (
    <Auth code={codeOf(record, 'export')}>
      <ExportButton path={exportPath} params={exportParams} data-testid={testIdOf(record, 'export')}>
        {t('export')}
      </ExportButton>
    </Auth>
  );
}

/** Import ({@link ImportRecordsButton}) and export ({@link ExportRecordsButton}) side by side. */
export function ExcelButtons({ exportPath, exportParams, ...importProps }: ExcelButtonsProps) {
  return (
    <>
      <ImportRecordsButton {...importProps} />
      <ExportRecordsButton record={importProps.record} exportPath={exportPath} exportParams={exportParams} />
    </>
  );
}
