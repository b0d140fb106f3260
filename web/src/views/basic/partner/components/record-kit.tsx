import { useState, type Key } from 'react';
import { Button, Popconfirm, Space, Switch, Tag, type ButtonProps } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../../app/feedback.ts';
import { errorText, isHttpError } from '../../../../app/http.ts';
import { Auth, useAuth } from '../../../../components/Auth/index.tsx';
import type { ValueEnum } from '../../../../components/ProTable/index.tsx';

/*
 * Pieces shared by the basic-record screens of this group (suppliers, customers, warehouses, storage
 * locations, fee types, pay types): the status switch, the batch buttons and how a refusal is shown.
 */

export const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

interface Named {
  id: number;
  name: string;
}

/**
 * The text of a failed write. The server names the refused record by id in `additional` (a warehouse
 * that still holds stock, a location in use); shown with the record's name instead when the screen has it.
 */
export function refusalText(error: unknown, rows: Named[] = []): string {
  if (isHttpError(error) && error.additional !== undefined) {
    const named = rows.find((r) => String(r.id) === String(error.additional));
    if (named) return `${error.text.slice(0, error.text.length - String(error.additional).length - 2)}: ${named.name}`;
  }
  return errorText(error);
}

export function showRefusal(error: unknown, rows: Named[] = []) {
  feedback.message.error({ content: refusalText(error, rows), key: 'basic-record-refusal', duration: 5 });
}

/** Value enum of the `enabled` column (search select and text). */
export function useStatusEnum(): ValueEnum {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.common' });
  return { true: { text: t('enabled'), color: 'green' }, false: { text: t('disabled'), color: 'default' } };
}

/**
 * Enable / disable and delete of a record type, with the messages of the screen: the success toast, or
 * the server's refusal naming the record.
 */
export function useRecordWrites<R extends Named>(opts: {
  enable: (ids: number[], enabled: boolean) => Promise<unknown>;
  remove: (ids: number[]) => Promise<unknown>;
  reload: () => void;
  clearSelection?: () => void;
}) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.common' });
  const [switching, setSwitching] = useState<number | null>(null);

  const setEnabled = async (rows: R[], enabled: boolean) => {
    if (rows.length === 1) setSwitching(rows[0]!.id);
    try {
      await opts.enable(rows.map((r) => r.id), enabled);
      feedback.message.success(enabled ? t('enabledDone') : t('disabledDone'));
      opts.reload();
    } catch (error) {
      showRefusal(error, rows);
    } finally {
      setSwitching(null);
    }
  };

  const remove = async (rows: R[]) => {
    try {
      await opts.remove(rows.map((r) => r.id));
      feedback.message.success(t('deleted'));
      opts.clearSelection?.();
      opts.reload();
    } catch (error) {
      showRefusal(error, rows);
    }
  };

  return { switching, setEnabled, remove };
}

/** The status cell: a switch for who may enable (`code`), a tag for everyone else. */
export function StatusCell({ enabled, code, loading, onChange, id }: { enabled: boolean; code: string; loading?: boolean; onChange: (enabled: boolean) => void; id: number }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.common' });
  const can = useAuth();
  if (!can(code)) return <Tag color={enabled ? 'green' : undefined}>{enabled ? t('enabled') : t('disabled')}</Tag>;
  return (
    <Switch
      size="small"
      checked={enabled}
      loading={loading}
      onClick={(checked, event) => {
        event.stopPropagation();
        onChange(checked);
      }}
      aria-label={enabled ? t('disable') : t('enable')}
      data-testid={`row-enable-${id}`}
    />
  );
}

/** Toolbar buttons acting on the selected rows: enable, disable, delete — each behind its button code. */
export function BatchButtons<R extends Named>({
  record,
  selectedKeys,
  selectedRows,
  onEnable,
  onDelete,
}: {
  /** Button-code and test-id prefix: `supplier` → basic_supplier_enable, `supplier-delete-selected`. */
  record: string;
  selectedKeys: Key[];
  selectedRows: R[];
  onEnable: (rows: R[], enabled: boolean) => Promise<void>;
  onDelete: (rows: R[]) => Promise<void>;
}) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.common' });
  const none = selectedKeys.length === 0;
  // Rows of other pages stay selected: act on the keys, name them when their row is known.
  const rows = selectedKeys.map((key) => selectedRows.find((r) => r?.id === Number(key)) ?? ({ id: Number(key), name: String(key) } as R));
  return (
    <Space size={8} wrap>
      <Auth code={`basic_${record}_enable`}>
        <Button icon={<CheckCircleOutlined />} disabled={none} onClick={() => void onEnable(rows, true)} data-testid={`${record}-enable-selected`}>
          {t('enableSelected')}
        </Button>
      </Auth>
      <Auth code={`basic_${record}_enable`}>
        <Popconfirm
          title={t('disableSelectedConfirm', { count: selectedKeys.length })}
          disabled={none}
          onConfirm={() => onEnable(rows, false)}
          okButtonProps={testId(`${record}-disable-selected-confirm`)}
        >
          <Button icon={<StopOutlined />} disabled={none} data-testid={`${record}-disable-selected`}>
            {t('disableSelected')}
          </Button>
        </Popconfirm>
      </Auth>
      <Auth code={`basic_${record}_delete`}>
        <Popconfirm
          title={t('deleteSelectedConfirm', { count: selectedKeys.length })}
          disabled={none}
          onConfirm={() => onDelete(rows)}
          okButtonProps={{ danger: true, ...testId(`${record}-delete-selected-confirm`) }}
        >
          <Button danger icon={<DeleteOutlined />} disabled={none} data-testid={`${record}-delete-selected`}>
            {t('deleteSelected')}
          </Button>
        </Popconfirm>
      </Auth>
    </Space>
  );
}

/** The row's delete link with its confirmation. */
export function DeleteLink({ record, row, onDelete }: { record: string; row: Named; onDelete: () => Promise<void> }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.common' });
  return (
    <Auth code={`basic_${record}_delete`}>
      <Popconfirm title={t('deleteConfirm', { name: row.name })} onConfirm={onDelete} okButtonProps={{ danger: true, ...testId(`row-delete-confirm-${row.id}`) }}>
        <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={(e) => e.stopPropagation()} data-testid={`row-delete-${row.id}`}>
          {t('delete')}
        </Button>
      </Popconfirm>
    </Auth>
  );
}

/** Phone rule of the contract (digits, +, -, parentheses and spaces, 3–30 characters) or empty. */
export const PHONE_PATTERN = /^[0-9+\-() ]{3,30}$/;
