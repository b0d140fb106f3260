import { useCallback, useMemo, useRef, useState } from 'react';
import { Avatar, Button, Popconfirm, Space, Tag, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, LockOutlined, PlusOutlined, UnlockOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Staff } from '@p8/contract/system';
import { feedback } from '../../../app/feedback.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction, type ValueEnum } from '../../../components/ProTable/index.tsx';
import { useAuthStore } from '../../../stores/auth.ts';
import { useDeptTree } from '../../../components/Pickers/api/get-dept-tree.ts';
import StatusSwitch, { SaveSwitch } from '../../../components/RecordKit/StatusSwitch.tsx';
import { useRoleOptions, roleOptionsQueryKey } from '../../../components/Pickers/api/get-roles.ts';
import RowMore from '../../../components/RecordKit/RowMore.tsx';
import { settled } from '../../../components/RecordKit/settled.ts';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteStaff } from './api/delete-staff.ts';
import { enableStaff } from './api/enable-staff.ts';
import { getStaff } from './api/get-staff.ts';
import { lockStaff } from './api/lock-staff.ts';
import { setOrderNotify } from './api/set-order-notify.ts';
import { setSmsNotify } from './api/set-sms-notify.ts';
import DeptPanel from './components/dept-panel.tsx';
import ResetDialog from './components/reset-dialog.tsx';
import StaffDialog, { type StaffForm } from './components/staff-dialog.tsx';
import './staff.css';

const formOf = (row: Staff): StaffForm => ({
  id: row.id,
  name: row.name,
  realName: row.realName,
  nickName: row.nickName,
  sex: row.sex,
  avatar: row.avatar,
  phone: row.phone,
  email: row.email,
  deptId: row.deptId ?? undefined,
  roleIds: row.roleIds,
  remark: row.remark,
});

/** Without any of these the rows have no actions: the action column is left out. */
const ACTION_CODES = 'system_staff_update|system_staff_delete|system_staff_reset_password|system_staff_enable';

/**
 * Staff accounts (system/staff): the department tree filters the list (with sub-departments
 * when asked); the list searches by account, name, phone, role, status and lock, and switches status and
 * notifications in place; add / edit, reset password, lock / unlock and delete — never on yourself, and
 * the default administrator cannot be deleted or disabled.
 */
export default function StaffPage() {
  const { t } = useTranslation();
  const can = useAuth();
  const me = useAuthStore((s) => s.userInfo?.id);
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<Staff>>(undefined);
  const dialog = useFormDialog<StaffForm>();
  const openDialog = dialog.open;
  const depts = useDeptTree();
  const roles = useRoleOptions();
  const [deptId, setDeptId] = useState<number | null>(null);
  const [includeChild, setIncludeChild] = useState(true);
  const [resetting, setResetting] = useState<{ open: boolean; staff: Staff | null }>({ open: false, staff: null });

  const params = useMemo(() => (deptId ? { deptId, includeChild: includeChild ? 1 : undefined } : {}), [deptId, includeChild]);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    // Role staff counts change with the accounts.
    void queryClient.invalidateQueries({ queryKey: roleOptionsQueryKey });
  }, [queryClient]);

  const writes = useRecordWrites<Staff>({ table: tableRef, enable: enableStaff, remove: deleteStaff, changed });

  const lock = useCallback(
    async (row: Staff, locked: boolean) => {
      if (!(await settled(lockStaff([row.id], locked)))) return;
      feedback.message.success(locked ? t('system.staff.lockedOk') : t('system.staff.unlockedOk'));
      changed();
    },
    [changed, t],
  );


  const setNotify = useCallback(
    async (row: Staff, kind: 'order' | 'sms', enabled: boolean) => {
      await (kind === 'order' ? setOrderNotify(row.id, enabled) : setSmsNotify(row.id, enabled));
      feedback.message.success(enabled ? t('system.common.enabledOk') : t('system.common.disabledOk'));
      tableRef.current?.reload();
    },
    [t],
  );

  const columns = useMemo<ProColumn<Staff>[]>(() => {
    const statusEnum: ValueEnum = {
      true: { text: t('system.common.enabled'), color: 'green' },
      false: { text: t('system.common.disabled'), color: 'default' },
    };
    const lockEnum: ValueEnum = {
      true: { text: t('system.staff.locked'), color: 'red' },
      false: { text: t('system.staff.normal'), color: 'green' },
    };
    const display = (row: Staff) => row.realName || row.name;
    /** Why a row's account cannot be shut out / deleted, if it cannot. */
    const protectedTip = (row: Staff) => (row.id === me ? t('system.staff.selfTip') : row.isDefault ? t('system.staff.defaultTip') : undefined);
    const list: ProColumn<Staff>[] = [
      {
        prop: 'avatar',
        title: t('system.staff.avatar'),
        width: 70,
        fixed: 'left',
        align: 'center',
        render: (_, row) => <Avatar size={32} src={row.avatar || undefined} icon={<UserOutlined />} />,
      },
      {
        prop: 'name',
        title: t('system.staff.name'),
        fixed: 'left',
        search: true,
        sortable: true,
        lockSetting: true,
        render: (_, row) => (
          <span className="p8-staff-name">
            {row.name}
            {row.id === me && <Tag color="blue">{t('system.staff.me')}</Tag>}
            {row.isDefault && <Tag color="gold">{t('system.common.default')}</Tag>}
          </span>
        ),
      },
      { prop: 'realName', title: t('system.staff.realName'), search: true, sortable: true },
      { prop: 'phone', title: t('system.staff.phone'), search: true, sortable: true, render: (v) => (v as string) || '—' },
      { prop: 'deptName', title: t('system.staff.dept'), render: (v) => (v as string) || '—' },
      {
        prop: 'roles',
        title: t('system.staff.roles'),
        render: (_, row) => (
          <Space size={[4, 4]} wrap>
            {row.roles.map((r) => (
              <Tag key={r.id} color={r.roleKey === 'admin' ? 'gold' : 'blue'}>
                {r.roleName}
              </Tag>
            ))}
          </Space>
        ),
      },
      {
        prop: 'roleId',
        title: t('system.staff.roles'),
        hideInTable: true,
        search: { type: 'select', options: (roles.data ?? []).map((r) => ({ value: r.id, label: r.roleName })) },
      },
      {
        prop: 'enabled',
        title: t('system.staff.status'),
        width: 90,
        align: 'center',
        search: true,
        valueEnum: statusEnum,
        render: (_, row) =>
          can('system_staff_enable') ? (
            <StatusSwitch
              record="system_staff"
              id={row.id}
              checked={row.enabled}
              onChange={(on) => writes.setEnabled([row], on)}
              confirmOff={t('system.staff.disableConfirm', { name: display(row) })}
              // Switching off is what is refused for yourself and the default administrator.
              disabled={row.enabled && !!protectedTip(row)}
              disabledTip={protectedTip(row)}
            />
          ) : (
            <Tag color={row.enabled ? 'green' : 'default'}>{row.enabled ? t('system.common.enabled') : t('system.common.disabled')}</Tag>
          ),
      },
      { prop: 'isLock', title: t('system.staff.lockState'), width: 100, align: 'center', search: true, valueEnum: lockEnum },
      {
        prop: 'newOrderNotify',
        title: t('system.staff.orderNotify'),
        width: 110,
        align: 'center',
        render: (_, row) => (
          <SaveSwitch
            checked={row.newOrderNotify}
            disabled={!can('system_staff_notify')}
            onChange={(on) => setNotify(row, 'order', on)}
            data-testid={`staff-order-notify-${row.id}`}
            aria-label={t('system.staff.orderNotify')}
          />
        ),
      },
      {
        prop: 'smsNotify',
        title: t('system.staff.smsNotify'),
        width: 100,
        align: 'center',
        render: (_, row) => (
          <SaveSwitch
            checked={row.smsNotify}
            disabled={!can('system_staff_notify')}
            onChange={(on) => setNotify(row, 'sms', on)}
            data-testid={`staff-sms-notify-${row.id}`}
            aria-label={t('system.staff.smsNotify')}
          />
        ),
      },
      { prop: 'lastLoginAt', title: t('system.staff.lastLoginAt'), valueType: 'dateTime', sortable: true, width: 170 },
      { prop: 'createdAt', title: t('system.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('system.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        render: (_, row) => {
          const tip = protectedTip(row);
          return (
            <Space size={0} wrap={false}>
              <Auth code="system_staff_update">
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => openDialog('edit', formOf(row))} data-testid={`row-edit-${row.id}`}>
                  {t('system.common.edit')}
                </Button>
              </Auth>
              <Auth code="system_staff_delete">
                {tip ? (
                  <Tooltip title={tip}>
                    <Button type="link" size="small" danger disabled icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                      {t('system.common.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Popconfirm title={t('system.common.deleteConfirm', { name: display(row) })} onConfirm={() => writes.remove([row])} okButtonProps={{ danger: true }}>
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                      {t('system.common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Auth>
              <RowMore
                data-testid={`row-more-${row.id}`}
                items={[
                  can('system_staff_reset_password') && {
                    key: 'reset',
                    icon: <KeyOutlined />,
                    label: t('system.staff.resetPassword'),
                    onClick: () => setResetting({ open: true, staff: row }),
                    'data-testid': `staff-reset-${row.id}`,
                  },
                  can('system_staff_enable') &&
                    (row.isLock
                      ? {
                          key: 'unlock',
                          icon: <UnlockOutlined />,
                          label: t('system.staff.unlockAction'),
                          confirm: t('system.staff.unlockConfirm', { name: display(row) }),
                          onClick: () => lock(row, false),
                          'data-testid': `staff-lock-${row.id}`,
                        }
                      : {
                          key: 'lock',
                          icon: <LockOutlined />,
                          label: t('system.staff.lockAction'),
                          danger: true,
                          disabledTip: tip,
                          confirm: t('system.staff.lockConfirm', { name: display(row) }),
                          onClick: () => lock(row, true),
                          'data-testid': `staff-lock-${row.id}`,
                        }),
                ]}
              />
            </Space>
          );
        },
      },
    ];
    return list.filter((c) => c.prop !== 'operation' || can(ACTION_CODES));
  }, [t, can, me, roles.data, openDialog, writes, setNotify, lock]);

  // Neither yourself nor the default administrator can be deleted: not selectable for the batch delete.
  const selection = useMemo(() => ({ getCheckboxProps: (row: Staff) => ({ disabled: row.id === me || row.isDefault }) }), [me]);

  return (
    <div className="p8-staff" data-testid="staff-page">
      <DeptPanel
        tree={depts.data ?? []}
        loading={depts.isPending}
        value={deptId}
        onChange={setDeptId}
        includeChild={includeChild}
        onIncludeChildChange={setIncludeChild}
      />
      <div className="p8-staff-list">
        <ProTable<Staff>
          columns={columns}
          request={getStaff}
          params={params}
          rowKey="id"
          listType="system_staff"
          rowSelection={can('system_staff_delete') ? selection : undefined}
          actionRef={tableRef}
          data-testid="staff-table"
          toolbar={({ selectedRowKeys, selectedRows }) => {
            const ids = selectedRowKeys.map(Number);
            return (
              <>
                <Auth code="system_staff_add">
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => openDialog('add', { sex: 0, deptId: deptId ?? undefined, roleIds: [] })}
                    data-testid="staff-add"
                  >
                    {t('system.common.add')}
                  </Button>
                </Auth>
                <Auth code="system_staff_delete">
                  <Popconfirm
                    title={t('system.common.batchDelete')}
                    description={t('system.common.batchDeleteConfirm', { count: ids.length })}
                    disabled={!ids.length}
                    onConfirm={() => writes.remove(selectedRows)}
                    okButtonProps={{ danger: true }}
                  >
                    <Button danger icon={<DeleteOutlined />} disabled={!ids.length} data-testid="staff-delete-batch">
                      {t('system.common.batchDelete')}
                    </Button>
                  </Popconfirm>
                </Auth>
              </>
            );
          }}
        />
      </div>
      <StaffDialog {...dialog.props} depts={depts.data ?? []} onSaved={changed} />
      <ResetDialog open={resetting.open} staff={resetting.staff} onClose={() => setResetting((s) => ({ ...s, open: false }))} />
    </div>
  );
}
