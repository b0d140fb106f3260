import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DataScope, Role } from '@p8/contract/system';
import { feedback } from '../../../app/feedback.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction, type ValueEnum } from '../../../components/ProTable/index.tsx';
import RowMore from '../../../components/RecordKit/RowMore.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { copyRolesBatch } from './api/copy-roles-batch.ts';
import { deleteRoles } from './api/delete-role.ts';
import { getRoles, roleOptionsQueryKey } from '../../../components/Pickers/api/get-roles.ts';
import CopyDialog from './components/copy-dialog.tsx';
import PermissionDialog from './components/permission-dialog.tsx';
import RoleDialog, { type RoleForm } from './components/role-dialog.tsx';
import ScopeDialog from './components/scope-dialog.tsx';

const SCOPE_COLOR: Record<DataScope, string> = { All: 'green', Custom: 'purple', Dept: 'blue', Self: 'default' };

/** Without any of these the rows have no actions: the action column is left out. */
const ACTION_CODES = 'system_role_update|system_role_update_scope|system_role_copy|system_role_delete';

/**
 * Roles (system/role): the list with data scope and staff count; add / edit, data scope
 * (all / custom departments / own department / own data), menu and button permissions, copy one,
 * copy and delete in batch. The super role's scope and permissions cannot be set; the server's
 * refusals (default role, role in use) are shown as it sends them.
 */
export default function RolePage() {
  const { t } = useTranslation();
  const can = useAuth();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<Role>>(undefined);
  const dialog = useFormDialog<RoleForm>();
  const openDialog = dialog.open;
  // The row a side dialog works on; kept while the dialog closes so its title does not flicker.
  const [target, setTarget] = useState<{ kind: 'scope' | 'permission' | 'copy' | null; role: Role | null }>({ kind: null, role: null });
  const openFor = useCallback((kind: 'scope' | 'permission' | 'copy', role: Role) => setTarget({ kind, role }), []);
  const closeSide = useCallback(() => setTarget((s) => ({ ...s, kind: null })), []);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: roleOptionsQueryKey });
  }, [queryClient]);

  const writes = useRecordWrites<Role>({ table: tableRef, remove: deleteRoles, changed });

  const copyBatch = useCallback(
    async (ids: number[]) => {
      const copies = await copyRolesBatch(ids).catch(() => null);
      if (!copies) return; // the HTTP client has shown why
      feedback.message.success(t('system.role.batchCopied', { count: copies.length }));
      tableRef.current?.clearSelection();
      changed();
    },
    [changed, t],
  );

  const columns = useMemo<ProColumn<Role>[]>(() => {
    const scopeEnum: ValueEnum = {
      All: { text: t('system.role.scopeAll'), color: SCOPE_COLOR.All },
      Custom: { text: t('system.role.scopeCustom'), color: SCOPE_COLOR.Custom },
      Dept: { text: t('system.role.scopeDept'), color: SCOPE_COLOR.Dept },
      Self: { text: t('system.role.scopeSelf'), color: SCOPE_COLOR.Self },
    };
    const superTip = t('system.role.superTip');
    const list: ProColumn<Role>[] = [
      {
        prop: 'roleName',
        title: t('system.role.roleName'),
        search: true,
        sortable: true,
        lockSetting: true,
        // Wide enough for a name beside its tag; the tag wraps below rather than squeezing the name to one
        // character a line (超级管理员 stood upright beside "Super administrator").
        width: 240,
        render: (_, row) => (
          <Space size={6} wrap>
            <span style={{ whiteSpace: 'nowrap' }}>{row.roleName}</span>
            {row.isSuper && <Tag color="gold">{t('system.role.super')}</Tag>}
            {row.isDefault && !row.isSuper && <Tag>{t('system.common.default')}</Tag>}
          </Space>
        ),
      },
      {
        prop: 'roleKey',
        title: t('system.role.roleKey'),
        search: true,
        sortable: true,
        width: 160,
        render: (_, row) => (
          <Typography.Text code style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            {row.roleKey}
          </Typography.Text>
        ),
      },
      {
        prop: 'dataScope',
        title: t('system.role.dataScope'),
        search: true,
        valueEnum: scopeEnum,
        render: (_, row) => {
          const item = scopeEnum[row.isSuper ? 'All' : row.dataScope];
          const tag = <Tag color={item.color}>{item.text}</Tag>;
          return row.dataScope === 'Custom' ? (
            <Space size={4}>
              {tag}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('system.role.scopeSelected', { count: row.deptIds.length })}
              </Typography.Text>
            </Space>
          ) : (
            tag
          );
        },
      },
      { prop: 'userCount', title: t('system.role.userCount'), align: 'center', width: 90 },
      { prop: 'sort', title: t('system.common.sort'), sortable: true, align: 'center', width: 90 },
      { prop: 'remark', title: t('system.common.remark'), ellipsis: true, width: 180, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('system.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('system.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        render: (_, row) => (
          <Space size={0} wrap={false}>
            <Auth code="system_role_update">
              <Button type="link" size="small" icon={<EditOutlined />} data-testid={`row-edit-${row.id}`} onClick={() => openDialog('edit', row)}>
                {t('system.common.edit')}
              </Button>
            </Auth>
            <Auth code="system_role_update_scope">
              <Tooltip title={row.isSuper ? superTip : undefined}>
                <Button type="link" size="small" icon={<SafetyOutlined />} disabled={row.isSuper} data-testid={`role-scope-${row.id}`} onClick={() => openFor('scope', row)}>
                  {t('system.role.dataScope')}
                </Button>
              </Tooltip>
            </Auth>
            <Auth code="system_role_update">
              <Tooltip title={row.isSuper ? superTip : undefined}>
                <Button
                  type="link"
                  size="small"
                  icon={<KeyOutlined />}
                  disabled={row.isSuper}
                  data-testid={`role-permission-${row.id}`}
                  onClick={() => openFor('permission', row)}
                >
                  {t('system.role.permission')}
                </Button>
              </Tooltip>
            </Auth>
            <RowMore
              data-testid={`row-more-${row.id}`}
              items={[
                can('system_role_copy') && {
                  key: 'copy',
                  icon: <CopyOutlined />,
                  label: t('system.role.copy'),
                  onClick: () => openFor('copy', row),
                  'data-testid': `role-copy-${row.id}`,
                },
                can('system_role_delete') && {
                  key: 'delete',
                  icon: <DeleteOutlined />,
                  danger: true,
                  label: t('system.common.delete'),
                  disabledTip: row.isDefault ? t('system.role.defaultTip') : undefined,
                  confirm: [t('system.common.deleteConfirm', { name: row.roleName }), row.userCount > 0 ? t('system.role.inUseTip') : ''].filter(Boolean).join(' '),
                  onClick: () => writes.remove([row]),
                  'data-testid': `row-delete-${row.id}`,
                },
              ]}
            />
          </Space>
        ),
      },
    ];
    return list.filter((c) => c.prop !== 'operation' || can(ACTION_CODES));
  }, [t, can, openDialog, openFor, writes]);

  return (
    <div data-testid="role-page">
      <ProTable<Role>
        columns={columns}
        request={getRoles}
        rowKey="id"
        listType="system_role"
        rowSelection={can('system_role_copy_batch|system_role_delete')}
        actionRef={tableRef}
        data-testid="role-table"
        toolbar={({ selectedRowKeys, selectedRows }) => {
          const ids = selectedRowKeys.map(Number);
          return (
            <>
              <Auth code="system_role_add">
                <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog('add', { sort: 0 })} data-testid="role-add">
                  {t('system.common.add')}
                </Button>
              </Auth>
              <Auth code="system_role_copy_batch">
                <Popconfirm
                  title={t('system.role.batchCopy')}
                  description={t('system.role.batchCopyConfirm', { count: ids.length })}
                  disabled={!ids.length}
                  onConfirm={() => copyBatch(ids)}
                >
                  <Button icon={<CopyOutlined />} disabled={!ids.length} data-testid="role-copy-batch">
                    {t('system.role.batchCopy')}
                  </Button>
                </Popconfirm>
              </Auth>
              <Auth code="system_role_delete">
                <Popconfirm
                  title={t('system.common.batchDelete')}
                  description={t('system.common.batchDeleteConfirm', { count: ids.length })}
                  disabled={!ids.length}
                  onConfirm={() => writes.remove(selectedRows)}
                  okButtonProps={{ danger: true }}
                >
                  <Button danger icon={<DeleteOutlined />} disabled={!ids.length} data-testid="role-delete-batch">
                    {t('system.common.batchDelete')}
                  </Button>
                </Popconfirm>
              </Auth>
            </>
          );
        }}
      />
      <RoleDialog {...dialog.props} onSaved={changed} />
      <ScopeDialog open={target.kind === 'scope'} role={target.role} onClose={closeSide} onSaved={changed} />
      <PermissionDialog open={target.kind === 'permission'} role={target.role} onClose={closeSide} onSaved={changed} />
      <CopyDialog open={target.kind === 'copy'} source={target.role} onClose={closeSide} onSaved={changed} />
    </div>
  );
}
