import { useCallback, useMemo, useRef, useState } from 'react';
import { App, Button, Card, Result, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { AppstoreOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PlatformTenant } from '@p8/contract/platform';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction, type ValueEnum } from '../../../components/ProTable/index.tsx';
import { enableTenants } from './api/enable-tenants.ts';
import { listTenants } from './api/list-tenants.ts';
import ModulesDialog from './components/modules-dialog.tsx';

/**
 * The platform's tenants (platform administrator only): each with its initial administrator, created
 * date, number of accounts and licensed modules; enable / disable (disabling signs its users out at once)
 * and the modules with their last day. Every change is in the audit log.
 */
function TenantList() {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.tenant' });
  const { t: names } = useTranslation(undefined, { keyPrefix: 'system-office.tenant.modules.names' });
  const { message } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<PlatformTenant>>(undefined);
  const [editing, setEditing] = useState<{ open: boolean; tenant: PlatformTenant | null; seq: number }>({ open: false, tenant: null, seq: 0 });
  const reload = useCallback(() => table.current?.reload(), []);

  const toggle = useCallback(
    async (row: PlatformTenant, enabled: boolean) => {
      await enableTenants([row.id], enabled);
      message.success(t(enabled ? 'enabledDone' : 'disabledDone', { name: row.name }));
      reload();
    },
    [message, t, reload],
  );

  const stateEnum = useMemo<ValueEnum>(() => ({ true: { text: t('enabled'), color: 'green' }, false: { text: t('disabled'), color: 'red' } }), [t]);

  const columns = useMemo<ProColumn<PlatformTenant>[]>(
    () => [
      { prop: 'id', title: 'ID', width: 70 },
      {
        prop: 'name',
        title: t('name'),
        search: { order: 0 },
        render: (_, row) => (
          <Space size={4}>
            {row.name}
            {row.isPlatform && <Tag color="gold">{t('platform')}</Tag>}
            {row.isLogoff && <Tag>{t('logoff')}</Tag>}
          </Space>
        ),
      },
      {
        prop: 'admin',
        title: t('admin'),
        render: (_, row) =>
          row.admin ? (
            <span>
              {row.admin.realName || row.admin.name} <Typography.Text type="secondary">({row.admin.name}{row.admin.phone ? ` · ${row.admin.phone}` : ''})</Typography.Text>
            </span>
          ) : (
            '—'
          ),
      },
      { prop: 'users', title: t('users'), width: 90, align: 'right' },
      {
        prop: 'modules',
        title: t('modules'),
        render: (_, row) =>
          row.modules.length ? (
            <Space size={[4, 4]} wrap>
              {row.modules.map((m) => (
                <Tooltip key={m.type} title={m.expiresAt ? t('lastDayIs', { day: dayjs(m.expiresAt).format('YYYY-MM-DD') }) : t('never')}>
                  <Tag color={m.isExpired ? 'red' : 'blue'} data-testid={`tenant-${row.id}-module-${m.type}`}>
                    {names(m.type, { defaultValue: m.type })}
                    {m.isExpired ? ` · ${t('expired')}` : m.expiresAt ? ` · ${dayjs(m.expiresAt).format('YYYY-MM-DD')}` : ''}
                  </Tag>
                </Tooltip>
              ))}
            </Space>
          ) : (
            <Typography.Text type="secondary">{t('allOpen')}</Typography.Text>
          ),
      },
      { prop: 'createdAt', title: t('createdAt'), valueType: 'dateTime', width: 170 },
      {
        prop: 'enabled',
        title: t('state'),
        width: 100,
        valueEnum: stateEnum,
        search: { order: 1 },
        render: (_, row) =>
          can('base_tenant_enable') && !row.isPlatform ? (
            <Switch checked={row.enabled} onChange={(on) => void toggle(row, on)} data-testid={`tenant-enable-${row.id}`} />
          ) : (
            <Tag color={row.enabled ? 'green' : 'red'}>{row.enabled ? t('enabled') : t('disabled')}</Tag>
          ),
      },
      {
        prop: 'operation',
        title: t('operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 110,
        render: (_, row) =>
          can('base_tenant_module') ? (
            <Button type="link" size="small" icon={<AppstoreOutlined />} onClick={() => setEditing((e) => ({ open: true, tenant: row, seq: e.seq + 1 }))} data-testid={`tenant-modules-${row.id}`}>
              {t('editModules')}
            </Button>
          ) : null,
      },
    ],
    [t, names, can, stateEnum, toggle],
  );

  return (
    <>
      <ProTable<PlatformTenant> columns={columns} request={listTenants} rowKey="id" actionRef={table} data-testid="tenant-table" />
      <ModulesDialog
        key={editing.seq}
        tenant={editing.tenant}
        open={editing.open}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        onSaved={() => {
          setEditing((e) => ({ ...e, open: false }));
          reload();
        }}
      />
    </>
  );
}

export default function TenantPage() {
  const { t } = useTranslation();
  const can = useAuth();
  return (
    <div data-testid="platform-tenant-page">
      {can('base_tenant_view') ? (
        <TenantList />
      ) : (
        <Card>
          <Result status="403" subTitle={t('system.common.noPermission')} />
        </Card>
      )}
    </div>
  );
}
