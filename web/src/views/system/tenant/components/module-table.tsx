import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { TenantConfigView } from '@p8/contract/tenant-config';

type Module = TenantConfigView['moduleList'][number];

/** The modules granted to the tenant, read-only, with their expiry state. */
export default function ModuleTable({ modules }: { modules: TenantConfigView['moduleList'] }) {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office.tenant.modules' });
  const { t: common } = useTranslation(undefined, { keyPrefix: 'system-office.common' });
  const name = (type: string) => (i18n.exists(`system-office.tenant.modules.names.${type}`) ? t(`names.${type}`) : type);
  return (
    <Table<Module>
      size="small"
      rowKey="type"
      pagination={false}
      dataSource={modules}
      locale={{ emptyText: t('empty') }}
      data-testid="tenant-modules"
      columns={[
        {
          key: 'type',
          title: t('type'),
          render: (_, m) => (
            <span>
              {name(m.type)} <Typography.Text type="secondary">({m.type})</Typography.Text>
            </span>
          ),
        },
        { key: 'needCheck', title: t('needCheck'), width: 140, render: (_, m) => (m.needCheck ? <Tag color="blue">{common('yes')}</Tag> : <Typography.Text type="secondary">{common('no')}</Typography.Text>) },
        { key: 'expiresAt', title: t('expiresAt'), width: 180, render: (_, m) => (m.expiresAt ? dayjs(m.expiresAt).format('YYYY-MM-DD') : t('never')) },
        {
          key: 'state',
          title: t('state'),
          width: 120,
          render: (_, m) => (m.isExpired ? <Tag color="red">{t('expired')}</Tag> : <Tag color="green">{t('active')}</Tag>),
        },
      ]}
    />
  );
}
