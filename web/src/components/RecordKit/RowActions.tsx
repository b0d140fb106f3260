import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, Tooltip, type ButtonProps } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Auth } from '../Auth/index.tsx';
import { codeOf, type RecordKey } from './record-key.ts';

interface RowActionsProps {
  record: RecordKey;
  id: number;
  /** Shown in the delete question. */
  name: string;
  onView?: () => void;
  onEdit?: () => void;
  onDelete?: () => Promise<unknown>;
  /** The view / edit link spins (the dialog waits for the record's detail). */
  viewLoading?: boolean;
  editLoading?: boolean;
  /** Why this row cannot be deleted: the link shows disabled with this tip. */
  deleteBlocked?: string;
  /** The screen's own links before view (structure, locations, add below…). */
  before?: ReactNode;
  /** The screen's own links after edit, before delete (assign, test print…). */
  extra?: ReactNode;
}

/**
 * The view, edit and delete links of a record row — edit and delete behind the record's `update` and
 * `delete` button codes — with test ids `row-view-<id>`, `row-edit-<id>`, `row-delete-<id>` and
 * `row-delete-confirm-<id>`.
 */
export default function RowActions({ record, id, name, onView, onEdit, onDelete, viewLoading, editLoading, deleteBlocked, before, extra }: RowActionsProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  const deleteLink = (
    <Button type="link" size="small" danger disabled={!!deleteBlocked} icon={<DeleteOutlined />} onClick={(e) => e.stopPropagation()} data-testid={`row-delete-${id}`}>
      {t('delete')}
    </Button>
  );
  return (
    <Space size={0} wrap={false}>
      {before}
      {onView && (
        <Button type="link" size="small" icon={<EyeOutlined />} loading={viewLoading} onClick={onView} data-testid={`row-view-${id}`}>
          {t('view')}
        </Button>
      )}
      {onEdit && (
        <Auth code={codeOf(record, 'update')}>
          <Button type="link" size="small" icon={<EditOutlined />} loading={editLoading} onClick={onEdit} data-testid={`row-edit-${id}`}>
            {t('edit')}
          </Button>
        </Auth>
      )}
      {extra}
      {onDelete && (
        <Auth code={codeOf(record, 'delete')}>
          {deleteBlocked ? (
            <Tooltip title={deleteBlocked}>{deleteLink}</Tooltip>
          ) : (
            <Popconfirm
              title={t('deleteConfirm', { name })}
              onConfirm={() => onDelete().catch(() => undefined)}
              okButtonProps={{ danger: true, 'data-testid': `row-delete-confirm-${id}` } as ButtonProps}
            >
              {deleteLink}
            </Popconfirm>
          )}
        </Auth>
      )}
    </Space>
  );
}
