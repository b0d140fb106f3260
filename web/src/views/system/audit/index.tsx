import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Button, Card, Result, Tag, Tooltip } from 'antd';
import { FileSearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@p8/contract/system';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { billTypeName, labelOf as inLanguage } from '../../../components/BillNames/index.ts';
import { useGlobalStore } from '../../../stores/global.ts';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ValueEnum } from '../../../components/ProTable/index.tsx';
import { getAudit } from './api/get-audit.ts';
import { summaryOf } from './components/audit-detail.ts';
import AuditDrawer from './components/audit-drawer.tsx';
import { useAuditFormat, useFieldLabel } from './components/use-audit-format.ts';
import './audit.css';

/** Colours of the actions the server records (an unknown action shows as plain text). */
const ACTION_COLOR: Record<string, string> = {
  create: 'green',
  add: 'green',
  update: 'blue',
  delete: 'red',
  enable: 'cyan',
  disable: 'default',
  lock: 'volcano',
  unlock: 'lime',
  copy: 'purple',
  scope: 'geekblue',
  permission: 'geekblue',
  'reset-password': 'orange',
  modules: 'purple',
  notify: 'default',
  import: 'purple',
  export: 'default',
  assign: 'gold',
  clear: 'red',
  logoff: 'red',
  // The mall's, the service orders' and the base content's own steps.
  message: 'default',
  dispatch: 'gold',
  audit_pass: 'green',
  audit_refuse: 'volcano',
  start: 'cyan',
  end: 'default',
  complete: 'green',
  cancel: 'red',
  auto_cancel: 'red',
  pay: 'green',
  ship: 'blue',
  refund_apply: 'orange',
  refund_approve: 'orange',
  refund_refuse: 'volcano',
  refund_confirm: 'red',
  remark: 'default',
  'on-shelf': 'cyan',
  'off-shelf': 'default',
  draw: 'purple',
  reply: 'blue',
  status: 'default',
  // The bill engine's steps (entity: the bill type) and the fund transfer's void.
  submit: 'blue',
  audit: 'green',
  refuse: 'volcano',
  abandonAudit: 'orange',
  merge: 'purple',
  manualCompletion: 'default',
  abandon: 'red',
  costRun: 'geekblue',
  costCancel: 'orange',
  deliver: 'blue',
  arrive: 'green',
};

const ENTITIES = [
  'dept',
  'menu',
  'role',
  'staff',
  'printer',
  'verify-rule',
  'tenant-config',
  'system-setting',
  'material',
  'brand',
  'category',
  'supplier',
  'customer',
  'warehouse',
  'location',
  'attribute',
  'unit',
  'bom',
  'district',
  'tenant',
  'mall-category',
  'mall-product',
  'mall-order',
  'mall-lottery',
  'mall-feedback',
  'attendance punch',
  'service-order',
  'serviceStaff',
  'swiper',
  'agreement',
  'business-hours',
  'time-slot',
  'platform-config',
  'fee type',
  'pay type',
  'material unit',
  'fundAccount',
  'transfer',
  'costPeriod',
];

/** The log itself, for holders of system_audit_view (the list call needs the code). */
function AuditList() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<{ open: boolean; entry: AuditEntry | null }>({ open: false, entry: null });
  const show = useCallback((entry: AuditEntry) => setCurrent({ open: true, entry }), []);
  const format = useAuditFormat();
  const labelOf = useFieldLabel();

  const actionEnum = useMemo<ValueEnum>(
    () => Object.fromEntries(Object.entries(ACTION_COLOR).filter(([a]) => a !== 'add').map(([a, color]) => [a, { text: t(`system.audit.actions.${a}`), color }])),
    [t],
  );
  const language = useGlobalStore((s) => s.language);
  // A bill's entries name its type (`PurchaseOrder`): by the bill registry's name, as the bill screens do.
  // A declared record kind's entries by its declared name.
  const entityName = useCallback(
    (entity: string) => {
      const declared = RECORD_KINDS.find((d) => d.entity === entity);
      const noun = declared ? inLanguage(declared.noun, language) : '';
      const fallback = declared ? noun.charAt(0).toUpperCase() + noun.slice(1) : billTypeName(entity, language);
      return t(`system.audit.entities.${entity}`, { defaultValue: fallback });
    },
    [t, language],
  );
  const entityEnum = useMemo<ValueEnum>(
    () => Object.fromEntries([...new Set([...ENTITIES, ...RECORD_KINDS.map((d) => d.entity), ...BILL_TYPES.map((d) => d.type)])].map((e) => [e, { text: entityName(e) }])),
    [entityName],
  );
  const actionTag = useCallback(
    (action: string): ReactNode => <Tag color={ACTION_COLOR[action] ?? 'default'}>{t(`system.audit.actions.${action}`, { defaultValue: action })}</Tag>,
    [t],
  );
  const entityTag = useCallback((entity: string): ReactNode => entityName(entity), [entityName]);

  const columns = useMemo<ProColumn<AuditEntry>[]>(() => {
    return [
      {
        prop: 'createdAt',
        title: t('system.audit.time'),
        valueType: 'dateTime',
        sortable: true,
        width: 170,
        lockSetting: true,
        search: { type: 'dateRange', order: 0 },
        // On one line: the content's summary beside it would squeeze it to three.
        onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      },
      { prop: 'adminName', title: t('system.audit.operator'), sortable: true, search: { order: 3 }, width: 120 },
      { prop: 'action', title: t('system.audit.action'), valueEnum: actionEnum, search: { order: 1 }, width: 110, render: (_, row) => actionTag(row.action) },
      { prop: 'entity', title: t('system.audit.entity'), valueEnum: entityEnum, search: { order: 2 }, width: 120, render: (_, row) => entityTag(row.entity) },
      { prop: 'entityId', title: t('system.audit.entityId'), width: 110, render: (v) => (v as string) || '—' },
      {
        prop: 'detail',
        title: t('system.audit.detail'),
        render: (_, row) => {
          const text = summaryOf(row.detail, labelOf(row.entity), format(row.entity));
          return text ? (
            <Tooltip title={text.length > 60 ? text : undefined} styles={{ root: { maxWidth: 480 } }}>
              <span className="p8-audit-summary">{text}</span>
            </Tooltip>
          ) : (
            '—'
          );
        },
      },
      { prop: 'ip', title: t('system.audit.ip'), width: 130, render: (v) => (v as string) || '—' },
      {
        prop: 'operation',
        title: t('system.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 90,
        render: (_, row) => (
          <Button type="link" size="small" icon={<FileSearchOutlined />} onClick={() => show(row)} data-testid={`audit-detail-${row.id}`}>
            {t('system.common.detail')}
          </Button>
        ),
      },
    ];
  }, [t, actionEnum, entityEnum, actionTag, entityTag, show, format, labelOf]);

  return (
    <>
      <ProTable<AuditEntry>
        columns={columns}
        request={getAudit}
        rowKey="id"
        listType="system_audit"
        data-testid="audit-table"
        onRow={(row) => ({ onDoubleClick: () => show(row) })}
      />
      <AuditDrawer
        entry={current.entry}
        open={current.open}
        onClose={() => setCurrent((c) => ({ ...c, open: false }))}
        actionTag={actionTag}
        entityTag={entityTag}
        format={format}
        labelOf={labelOf}
      />
    </>
  );
}

/** Audit log (issue 3): every administrative change — who, when, what — with filters and a detail drawer. */
export default function AuditPage() {
  const { t } = useTranslation();
  const can = useAuth();
  return (
    <div data-testid="audit-page">
      {can('system_audit_view') ? (
        <AuditList />
      ) : (
        <Card>
          <Result status="403" subTitle={t('system.common.noPermission')} />
        </Card>
      )}
    </div>
  );
}
