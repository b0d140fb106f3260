import type { Key, ReactNode } from 'react';
import { Button, Popconfirm, Space, Tooltip, type ButtonProps } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, EditOutlined, EyeOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TemplateKey } from '@p8/contract/tenant-config';
import { feedback } from '../../../../app/feedback.ts';
import type { QueryParams } from '../../../../app/http.ts';
import Auth from '../../../../components/Auth/index.tsx';
import ExportButton from '../../../../components/ExportButton/index.tsx';
import { ImportButton } from '../../../../components/ImportExcel/index.tsx';
import './basic.css';

/**
 * Toolbar and row pieces shared by the basic-record screens (materials, BOMs, categories, units,
 * brands, attributes, districts): each write control sits behind its button code
 * `basic_<record>_<action>` and carries a stable test id.
 */

interface BatchButtonsProps {
  record: string;
  selectedKeys: Key[];
  onDelete?: (ids: number[]) => Promise<unknown>;
  onEnable?: (ids: number[], enabled: boolean) => Promise<unknown>;
}

/** "Delete selected", "Enable", "Disable" for the checked rows (disabled until rows are checked). */
export function BatchButtons({ record, selectedKeys, onDelete, onEnable }: BatchButtonsProps) {
  const { t } = useTranslation();
  const ids = selectedKeys.map(Number);
  const none = ids.length === 0;
  return (
    <>
      {onEnable && (
        <Auth code={`basic_${record}_enable`}>
          <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => void onEnable(ids, true).catch(() => undefined)} data-testid={`${record}-batch-enable`}>
            {t('basic.common.enable')}
          </Button>
          <Popconfirm
            title={t('basic.common.batchDisableConfirm', { count: ids.length })}
            onConfirm={() => onEnable(ids, false).catch(() => undefined)}
            disabled={none}
          >
            <Button icon={<StopOutlined />} disabled={none} data-testid={`${record}-batch-disable`}>
              {t('basic.common.disable')}
            </Button>
          </Popconfirm>
        </Auth>
      )}
      {onDelete && (
        <Auth code={`basic_${record}_delete`}>
          <Popconfirm
            title={t('basic.common.batchDeleteConfirm', { count: ids.length })}
            onConfirm={() => onDelete(ids).catch(() => undefined)}
            okButtonProps={{ danger: true }}
            disabled={none}
          >
            <Button danger icon={<DeleteOutlined />} disabled={none} data-testid={`${record}-batch-delete`}>
              {t('basic.common.batchDelete')}
            </Button>
          </Popconfirm>
        </Auth>
      )}
    </>
  );
}

interface ExcelButtonsProps {
  record: string;
  importPath?: string;
  /** Template key of the system config, or `templateUrl` for a template outside it. */
  template?: TemplateKey;
  templateUrl?: string;
  exportPath?: string;
  /** The list query to export, read at click time. */
  exportParams?: () => QueryParams;
  onImported?: () => void;
}

/** Import (with the template link) and export of a basic record, behind their button codes. */
export function ExcelButtons({ record, importPath, template, templateUrl, exportPath, exportParams, onImported }: ExcelButtonsProps) {
  const { t } = useTranslation();
  return (
    <>
      {importPath && (
        <Auth code={`basic_${record}_import`}>
          <ImportButton importPath={importPath} template={template} templateUrl={templateUrl} onSuccess={() => onImported?.()} buttonProps={{ 'data-testid': `${record}-import` } as ButtonProps}>
            {t('basic.common.import')}
          </ImportButton>
        </Auth>
      )}
      {exportPath && (
        <Auth code={`basic_${record}_export`}>
          <ExportButton path={exportPath} params={exportParams} data-testid={`${record}-export`}>
            {t('basic.common.export')}
          </ExportButton>
        </Auth>
      )}
    </>
  );
}

interface RowActionsProps {
  record: string;
  id: number;
  /** Shown in the delete question. */
  name: string;
  onView?: () => void;
  onEdit?: () => void;
  onDelete?: () => Promise<unknown>;
  /** Why delete is not offered for this row (the button shows disabled with this tip). */
  deleteBlocked?: string;
  /** Extra buttons before view / edit / delete. */
  before?: ReactNode;
  /** Edit is loading the detail. */
  editLoading?: boolean;
}

/** View, edit and delete links of a row: `row-view-<id>`, `row-edit-<id>`, `row-delete-<id>`. */
export function RowActions({ record, id, name, onView, onEdit, onDelete, deleteBlocked, before, editLoading }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Space size={0} wrap={false}>
      {before}
      {onView && (
        <Button type="link" size="small" icon={<EyeOutlined />} onClick={onView} data-testid={`row-view-${id}`}>
          {t('basic.common.view')}
        </Button>
      )}
      {onEdit && (
        <Auth code={`basic_${record}_update`}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={onEdit} loading={editLoading} data-testid={`row-edit-${id}`}>
            {t('basic.common.edit')}
          </Button>
        </Auth>
      )}
      {onDelete && (
        <Auth code={`basic_${record}_delete`}>
          {deleteBlocked ? (
            <Tooltip title={deleteBlocked}>
              <Button type="link" size="small" danger disabled icon={<DeleteOutlined />} data-testid={`row-delete-${id}`}>
                {t('basic.common.delete')}
              </Button>
            </Tooltip>
          ) : (
            <Popconfirm title={t('basic.common.deleteConfirm', { name })} onConfirm={() => onDelete().catch(() => undefined)} okButtonProps={{ danger: true }}>
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`row-delete-${id}`}>
                {t('basic.common.delete')}
              </Button>
            </Popconfirm>
          )}
        </Auth>
      )}
    </Space>
  );
}

/** Toasts after a batch write. */
export const notifyDeleted = (t: (key: string) => string) => feedback.message.success(t('basic.common.deleted'));
export const notifyEnabled = (t: (key: string) => string, enabled: boolean) =>
  feedback.message.success(enabled ? t('basic.common.enabledOk') : t('basic.common.disabledOk'));
