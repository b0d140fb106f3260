import { useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Popconfirm, Space, Switch, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import { ArrowRightOutlined, DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AuditType, type VerifyRuleRow } from '@p8/contract/office';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { TENANT_CONFIG_QUERY_KEY, useTenantConfig } from '../../../hooks/useTenantConfig.ts';
import { deleteVerifyRules } from './api/delete-verify-rules.ts';
import { enableVerifyRules } from './api/enable-verify-rules.ts';
import { listVerifyRules } from './api/list-verify-rules.ts';
import { BILL_TYPE_GROUPS, BILL_TYPES, type BillTypeGroup } from './bill-types.ts';
import RuleDialog, { type RuleDialogState } from './components/rule-dialog.tsx';
import './verify.css';

const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** System → joint review: which bill types need review, by whom, in which mode and order (SPEC §4). */
export default function VerifyPage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const { message } = App.useApp();
  const can = useAuth();
  const queryClient = useQueryClient();
  const { config } = useTenantConfig();
  const table = useRef<ProTableAction<VerifyRuleRow>>(undefined);
  const [dialog, setDialog] = useState<RuleDialogState>({ open: false, mode: 'add' });
  const [switching, setSwitching] = useState<number | null>(null);

  const billTypeName = (type: string) => (BILL_TYPES.includes(type) ? t(`verify.billTypes.${type}`) : type);

  // Every change rewrites the tenant config's openVerifyBill: the cached config is stale afterwards.
  const changed = () => {
    table.current?.reload();
    void queryClient.invalidateQueries({ queryKey: TENANT_CONFIG_QUERY_KEY });
  };

  const remove = async (ids: number[]) => {
    await deleteVerifyRules(ids);
    message.success(t('common.deleted'));
    table.current?.clearSelection();
    changed();
  };

  const toggle = async (row: VerifyRuleRow, enabled: boolean) => {
    setSwitching(row.id);
    try {
      await enableVerifyRules([row.id], enabled);
      message.success(enabled ? t('common.enabledDone') : t('common.disabledDone'));
      changed();
    } catch {
      /* shown by the HTTP client */
    } finally {
      setSwitching(null);
    }
  };

  const billTypeSearch = useMemo(
    () =>
      (Object.keys(BILL_TYPE_GROUPS) as BillTypeGroup[]).flatMap((group) => BILL_TYPE_GROUPS[group].map((type) => ({ value: type, label: t(`verify.billTypes.${type}`) }))),
    [t],
  );

  const columns = useMemo<ProColumn<VerifyRuleRow>[]>(
    () => [
      {
        prop: 'billType',
        title: t('verify.billType'),
        lockSetting: true,
        sortable: true,
        width: 190,
        search: { type: 'select', options: billTypeSearch, props: { showSearch: { optionFilterProp: 'label' } } },
        render: (_, row) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{billTypeName(row.billType)}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.billType}
            </Typography.Text>
          </Space>
        ),
      },
      {
        prop: 'auditType',
        title: t('verify.auditType'),
        width: 130,
        search: true,
        valueEnum: Object.fromEntries(AuditType.map((a) => [a, { text: t(`verify.auditTypes.${a}`), color: a === 'AllVerify' ? 'geekblue' : 'cyan' }])),
        render: (_, row) => (
          <Tooltip title={t(`verify.auditTypeHelp.${row.auditType}`)}>
            <Tag color={row.auditType === 'AllVerify' ? 'geekblue' : 'cyan'}>{t(`verify.auditTypes.${row.auditType}`)}</Tag>
          </Tooltip>
        ),
      },
      {
        prop: 'sequential',
        title: t('verify.sequential'),
        width: 110,
        render: (_, row) => (row.sequential ? <Tag color="orange">{t('verify.sequential')}</Tag> : <Typography.Text type="secondary">{t('verify.sequentialNotOrdered')}</Typography.Text>),
      },
      {
        prop: 'reviewers',
        title: t('verify.reviewers'),
        width: 320,
        render: (_, row) => (
          <span className="p8-verify-chain" data-testid={`row-reviewers-${row.id}`}>
            {row.reviewers.map((r, index) => (
              <span key={r.adminId} className="p8-verify-chain-item">
                {index > 0 && (row.sequential ? <ArrowRightOutlined className="p8-verify-chain-arrow" /> : <span className="p8-verify-chain-sep">/</span>)}
                <Tag variant="filled" color="blue" style={{ marginInlineEnd: 0 }}>
                  {row.sequential && <span className="p8-verify-chain-step">{index + 1}</span>}
                  {r.realName || r.name || `#${r.adminId}`}
                </Tag>
              </span>
            ))}
          </span>
        ),
      },
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 100,
        search: true,
        valueEnum: { true: { text: t('common.enabled'), color: 'green' }, false: { text: t('common.disabled') } },
        render: (_, row) =>
          can('system_verify_enable') ? (
            <Switch
              checked={row.enabled}
              loading={switching === row.id}
              checkedChildren={t('common.enabled')}
              unCheckedChildren={t('common.disabled')}
              onClick={(checked, event) => {
                event.stopPropagation();
                void toggle(row, checked);
              }}
              data-testid={`row-enable-${row.id}`}
            />
          ) : (
            <Tag color={row.enabled ? 'green' : undefined}>{row.enabled ? t('common.enabled') : t('common.disabled')}</Tag>
          ),
      },
      { prop: 'remark', title: t('verify.remark'), ellipsis: true, width: 180, render: (v) => (v ? String(v) : '—') },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 210,
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setDialog({ open: true, mode: 'view', record: row })} data-testid={`row-view-${row.id}`}>
              {t('common.view')}
            </Button>
            <Auth code="system_verify_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, mode: 'edit', record: row })} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            <Auth code="system_verify_delete">
              <Popconfirm
                title={t('common.deleteConfirm', { name: billTypeName(row.billType) })}
                onConfirm={() => remove([row.id]).catch(() => undefined)}
                okButtonProps={{ danger: true, ...testId(`row-delete-confirm-${row.id}`) }}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            </Auth>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- row actions read the latest state through the render
    [t, i18n.language, can, switching, billTypeSearch],
  );

  return (
    <div className="p8-system-verify">
      {config && !config.openVerify && (
        <Alert type="warning" showIcon title={t('verify.openVerifyOff')} style={{ marginBottom: 12 }} data-testid="verify-open-verify-off" />
      )}
      <ProTable<VerifyRuleRow>
        data-testid="verify-table"
        listType="system_verify"
        rowKey="id"
        columns={columns}
        request={listVerifyRules}
        actionRef={table}
        rowSelection={can('system_verify_delete')}
        toolbar={({ selectedRowKeys }) => (
          <>
            <Auth code="system_verify_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid="verify-add">
                {t('verify.add')}
              </Button>
            </Auth>
            <Auth code="system_verify_delete">
              <Popconfirm
                title={t('common.deleteSelectedConfirm', { count: selectedRowKeys.length })}
                disabled={!selectedRowKeys.length}
                onConfirm={() => remove(selectedRowKeys.map(Number)).catch(() => undefined)}
                okButtonProps={{ danger: true, ...testId('verify-delete-selected-confirm') }}
              >
                <Button danger icon={<DeleteOutlined />} disabled={!selectedRowKeys.length} data-testid="verify-delete-selected">
                  {t('common.deleteSelected')}
                </Button>
              </Popconfirm>
            </Auth>
            <Typography.Text type="secondary" className="p8-verify-intro">
              {t('verify.intro')}
            </Typography.Text>
          </>
        )}
      />
      <RuleDialog state={dialog} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={changed} />
    </div>
  );
}
