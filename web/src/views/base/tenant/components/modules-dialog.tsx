import { useState } from 'react';
import { App, Checkbox, DatePicker, Modal, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MODULE_TYPES, type ModuleType, type PlatformModule, type PlatformTenant } from '@p8/contract/platform';
import { setTenantModules } from '../api/set-modules.ts';

interface Row {
  type: ModuleType;
  licensed: boolean;
  needCheck: boolean;
  /** The last day the module runs (YYYY-MM-DD), or null = never expires. */
  expiresAt: string | null;
}

/** A stored expiry as the day it ends on (an older full timestamp shows as its own day). */
const dayOf = (expiresAt: string | null) => (expiresAt ? dayjs(expiresAt).format('YYYY-MM-DD') : null);

function rowsOf(tenant: PlatformTenant | null): Row[] {
  return MODULE_TYPES.map((type) => {
    const held = tenant?.modules.find((m) => m.type === type);
    return { type, licensed: !!held, needCheck: held?.needCheck ?? false, expiresAt: dayOf(held?.expiresAt ?? null) };
  });
}

/**
 * Mounted afresh for each opening (the list gives it a new key), so its rows start from the tenant's.
 * The tenant's licensed modules: which it holds and the last day each runs (empty = never). A module not
 * held is open, as before licensing; one past its last day closes — its menus go and its routes refuse.
 */
export default function ModulesDialog({ tenant, open, onClose, onSaved }: { tenant: PlatformTenant | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.tenant' });
  const { t: names } = useTranslation(undefined, { keyPrefix: 'system-office.tenant.modules.names' });
  const { message } = App.useApp();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(tenant));
  const [saving, setSaving] = useState(false);
  const change = (type: ModuleType, patch: Partial<Row>) => setRows((all) => all.map((r) => (r.type === type ? { ...r, ...patch } : r)));

  const save = async () => {
    if (!tenant) return;
    setSaving(true);
    try {
      const modules: PlatformModule[] = rows.filter((r) => r.licensed).map((r) => ({ type: r.type, needCheck: r.needCheck, expiresAt: r.expiresAt }));
      await setTenantModules({ id: tenant.id, modules });
      message.success(t('modulesSaved', { name: tenant.name }));
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('modulesTitle', { name: tenant?.name ?? '' })}
      width={640}
      onCancel={onClose}
      onOk={() => void save()}
      okButtonProps={{ loading: saving, 'data-testid': 'tenant-modules-save' } as never}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('modulesHelp')}</Typography.Paragraph>
      <Table<Row>
        size="small"
        rowKey="type"
        pagination={false}
        dataSource={rows}
        data-testid="tenant-modules-edit"
        columns={[
          {
            key: 'licensed',
            title: t('module'),
            render: (_, r) => (
              <Checkbox checked={r.licensed} onChange={(e) => change(r.type, { licensed: e.target.checked })} data-testid={`module-${r.type}`}>
                {names(r.type)}
              </Checkbox>
            ),
          },
          {
            key: 'expiresAt',
            title: t('lastDay'),
            width: 200,
            render: (_, r) => (
              <DatePicker
                value={r.expiresAt ? dayjs(r.expiresAt) : null}
                disabled={!r.licensed}
                placeholder={t('never')}
                onChange={(d) => change(r.type, { expiresAt: d ? d.format('YYYY-MM-DD') : null })}
                data-testid={`module-${r.type}-expires`}
              />
            ),
          },
          {
            key: 'needCheck',
            title: t('needCheck'),
            width: 120,
            render: (_, r) => <Checkbox checked={r.needCheck} disabled={!r.licensed} onChange={(e) => change(r.type, { needCheck: e.target.checked })} />,
          },
        ]}
      />
    </Modal>
  );
}
