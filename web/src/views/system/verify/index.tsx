import { useCallback, useMemo, useRef } from 'react';
import { Alert, Space, Tag, Tooltip, Typography } from 'antd';
import { ArrowRightOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { AuditType, type VerifyRuleRow } from '@p8/contract/office';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { TENANT_CONFIG_QUERY_KEY, useTenantConfig } from '../../../hooks/useTenantConfig.ts';
import { deleteVerifyRules } from './api/delete-verify-rules.ts';
import { enableVerifyRules } from './api/enable-verify-rules.ts';
import { listVerifyRules } from './api/list-verify-rules.ts';
import { billTypeName as registryName } from '../../../components/BillNames/index.ts';
import RuleDialog from './components/rule-dialog.tsx';
import './verify.css';

/** System → joint review: which bill types need review, by whom, in which mode and order. */
export default function VerifyPage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const can = useAuth();
  const queryClient = useQueryClient();
  const { config } = useTenantConfig();
  const table = useRef<ProTableAction<VerifyRuleRow>>(undefined);
  const dialog = useRecordDialog<VerifyRuleRow>();
  const openDialog = dialog.open;
  const recordColumns = useRecordColumns();

  const lang = i18n.language;
  const billTypeName = useCallback((type: string) => registryName(type, lang), [lang]);
  /** A rule is named by its bill type (in the delete question and a refusal). */
  const named = useCallback((rule: VerifyRuleRow) => ({ ...rule, name: billTypeName(rule.billType) }), [billTypeName]);

  // Every change rewrites the tenant config's openVerifyBill: the cached config is stale afterwards.
  const changed = useCallback(() => {
    table.current?.reload();
    void queryClient.invalidateQueries({ queryKey: TENANT_CONFIG_QUERY_KEY });
  }, [queryClient]);
  const writes = useRecordWrites<VerifyRuleRow>({ table, enable: enableVerifyRules, remove: deleteVerifyRules, changed });

  const billTypeSearch = useMemo(
    () =>
      BILL_TYPES.map((decl) => ({ value: decl.type, label: billTypeName(decl.type) })),
    [billTypeName],
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
      recordColumns.status<VerifyRuleRow>({ record: 'system_verify', writes, labelled: true }),
      { prop: 'remark', title: t('verify.remark'), ellipsis: true, width: 180, render: (v) => (v ? String(v) : '—') },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<VerifyRuleRow>(210, (row) => (
        <RowActions
          record="system_verify"
          id={row.id}
          name={billTypeName(row.billType)}
          onView={() => openDialog('view', row)}
          onEdit={() => openDialog('edit', row)}
          onDelete={() => writes.remove([named(row)])}
        />
      )),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the bill type texts follow the language
    [t, i18n.language, billTypeName, named, billTypeSearch, recordColumns, writes, openDialog],
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
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="system_verify" onClick={() => openDialog('add')}>
              {t('verify.add')}
            </AddButton>
            <BatchButtons record="system_verify" selectedKeys={selectedRowKeys} selectedRows={selectedRows.map(named)} onDelete={writes.remove} />
            <Typography.Text type="secondary" className="p8-verify-intro">
              {t('verify.intro')}
            </Typography.Text>
          </>
        )}
      />
      <RuleDialog state={dialog.state} onClose={dialog.close} onSaved={changed} />
    </div>
  );
}
