import { useCallback, useMemo, useRef, useState, type Key } from 'react';
import { Button, Popconfirm, Space, Tag, Tooltip } from 'antd';
import { DeleteOutlined, EditOutlined, MinusSquareOutlined, PlusOutlined, PlusSquareOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeptNode } from '@p8/contract/system';
import type { QueryParams } from '../../../app/http.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { deleteDepts } from './api/delete-dept.ts';
import { enableDepts } from './api/enable-dept.ts';
import { deptTreeQueryKey, getDeptTree, useDeptTree } from '../../../components/Pickers/api/get-dept-tree.ts';
import DeptDialog, { type DeptForm } from './components/dept-dialog.tsx';
import StatusSwitch from '../../../components/RecordKit/StatusSwitch.tsx';
import { countTree, filterTree, parentIds } from '../../../components/Tree/tree-utils.ts';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';

/** Without any of these the rows have no actions: the action column is left out. */
const ACTION_CODES = 'system_department_add|system_department_update|system_department_delete';

/**
 * Departments (system/department): the tenant's department tree as a tree table, searched by
 * name and status, with add (top level or below a row), edit, delete and an enable switch — each behind
 * its button code.
 */
export default function DepartmentPage() {
  const { t } = useTranslation();
  const can = useAuth();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<DeptNode>>(undefined);
  const dialog = useFormDialog<DeptForm>();
  const fullTree = useDeptTree();
  const [rows, setRows] = useState<DeptNode[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const seenParents = useRef(new Set<number>());
  const lastSearch = useRef('');

  const request = useCallback(async (params: QueryParams) => {
    const enabled = params.enabled === undefined ? undefined : String(params.enabled) === 'true';
    const name = String(params.name ?? '')
      .trim()
      .toLowerCase();
    lastSearch.current = `${name}|${String(params.enabled ?? '')}`;
    const tree = await getDeptTree(enabled);
    const data = name ? filterTree(tree, (d) => d.name.toLowerCase().includes(name)) : tree;
    const total = countTree(data);
    return { data, pagination: { current: 1, pageSize: total, total } };
  }, []);

  // Expand every department the first time it is seen, and everything after a search; a reload
  // (after a save) keeps what the user folded.
  const onLoad = useCallback((data: DeptNode[]) => {
    setRows(data);
    const parents = parentIds(data);
    const fresh = parents.filter((id) => !seenParents.current.has(id));
    parents.forEach((id) => seenParents.current.add(id));
    if (lastSearch.current !== '|') setExpanded(parents);
    else setExpanded((current) => [...current.filter((k) => parents.includes(Number(k))), ...fresh]);
  }, []);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: deptTreeQueryKey });
  }, [queryClient]);

  const writes = useRecordWrites<DeptNode>({ table: tableRef, enable: enableDepts, remove: deleteDepts, changed });

  const openDialog = dialog.open;
  const openEdit = useCallback(
    (row: DeptNode) =>
      openDialog('edit', {
        id: row.id,
        name: row.name,
        parentId: row.parentId,
        leaderId: row.leaderId,
        leaderName: row.leaderName,
        phone: row.phone,
        email: row.email,
        sort: row.sort,
        remark: row.remark,
      }),
    [openDialog],
  );

  const columns = useMemo<ProColumn<DeptNode>[]>(() => {
    const list: ProColumn<DeptNode>[] = [
      {
        prop: 'name',
        title: t('system.dept.name'),
        search: true,
        lockSetting: true,
        width: 260,
        render: (_, row) => (
          <Space size={6}>
            <span>{row.name}</span>
            {row.isDefault && <Tag color="gold">{t('system.common.default')}</Tag>}
          </Space>
        ),
      },
      { prop: 'leaderName', title: t('system.dept.leader'), render: (v) => (v as string) || '—' },
      { prop: 'phone', title: t('system.dept.phone'), render: (v) => (v as string) || '—' },
      { prop: 'email', title: t('system.dept.email'), render: (v) => (v as string) || '—' },
      { prop: 'sort', title: t('system.common.sort'), width: 80, align: 'center' },
      {
        prop: 'enabled',
        title: t('system.common.status'),
        width: 100,
        align: 'center',
        search: true,
        valueEnum: {
          true: { text: t('system.common.enabled'), color: 'green' },
          false: { text: t('system.common.disabled'), color: 'default' },
        },
        render: (_, row) =>
          can('system_department_enable') ? (
            <StatusSwitch
              record="system_department"
              id={row.id}
              checked={row.enabled}
              onChange={(on) => writes.setEnabled([row], on)}
              confirmOff={t('system.dept.disableConfirm', { name: row.name })}
            />
          ) : (
            <Tag color={row.enabled ? 'green' : 'default'}>{row.enabled ? t('system.common.enabled') : t('system.common.disabled')}</Tag>
          ),
      },
      { prop: 'remark', title: t('system.common.remark'), ellipsis: true, width: 180, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('system.common.createdAt'), valueType: 'dateTime', width: 170 },
      {
        prop: 'operation',
        title: t('system.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        render: (_, row) => (
          <Space size={0} className="p8-sys-row-actions">
            <Auth code="system_department_add">
              <Button type="link" size="small" icon={<PlusOutlined />} onClick={() => openDialog('add', { parentId: row.id, sort: 0 })} data-testid={`row-add-${row.id}`}>
                {t('system.dept.addChild')}
              </Button>
            </Auth>
            <Auth code="system_department_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => openEdit(row)} data-testid={`row-edit-${row.id}`}>
                {t('system.common.edit')}
              </Button>
            </Auth>
            <Auth code="system_department_delete">
              {row.isDefault ? (
                <Tooltip title={t('system.dept.defaultTip')}>
                  <Button type="link" size="small" danger disabled icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                    {t('system.common.delete')}
                  </Button>
                </Tooltip>
              ) : (
                <Popconfirm title={t('system.common.deleteConfirm', { name: row.name })} onConfirm={() => writes.remove([row])} okButtonProps={{ danger: true }}>
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                    {t('system.common.delete')}
                  </Button>
                </Popconfirm>
              )}
            </Auth>
          </Space>
        ),
      },
    ];
    return list.filter((c) => c.prop !== 'operation' || can(ACTION_CODES));
  }, [t, can, writes, openDialog, openEdit]);

  const allParents = useMemo(() => parentIds(rows), [rows]);
  const tree = fullTree.data ?? [];

  return (
    <div data-testid="department-page">
      <ProTable<DeptNode>
        columns={columns}
        request={request}
        rowKey="id"
        listType="system_dept"
        pagination={false}
        actionRef={tableRef}
        onLoad={onLoad}
        data-testid="department-table"
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]), indentSize: 20 }}
        toolbar={
          <>
            <Auth code="system_department_add">
              <Button
                type="primary"
                icon={<PlusOutlined />}
                // A new department goes under the company (the single root) unless the user picks another parent.
                onClick={() => dialog.open('add', { parentId: tree.length === 1 ? tree[0].id : null, sort: 0 })}
                data-testid="department-add"
              >
                {t('system.common.add')}
              </Button>
            </Auth>
            <Button icon={<PlusSquareOutlined />} onClick={() => setExpanded(allParents)} data-testid="department-expand">
              {t('system.common.expandAll')}
            </Button>
            <Button icon={<MinusSquareOutlined />} onClick={() => setExpanded([])} data-testid="department-collapse">
              {t('system.common.collapseAll')}
            </Button>
          </>
        }
      />
      <DeptDialog {...dialog.props} tree={tree} onSaved={changed} />
    </div>
  );
}
