import { useCallback, useMemo, useRef, useState, type Key } from 'react';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, MinusSquareOutlined, PlusOutlined, PlusSquareOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MenuType } from '@p8/contract/menu';
import type { MenuRow } from '@p8/contract/system';
import type { QueryParams } from '../../../app/http.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import MenuIcon from '../../../components/MenuIcon/index.tsx';
import ProTable, { type ProColumn, type ProTableAction, type ValueEnum } from '../../../components/ProTable/index.tsx';
import { useGlobalStore } from '../../../stores/global.ts';
import StatusSwitch from '../../../components/RecordKit/StatusSwitch.tsx';
import { countTree, filterTree, parentIds, treeIds } from '../../../components/Tree/tree-utils.ts';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteMenus } from './api/delete-menu.ts';
import { enableMenus } from './api/enable-menu.ts';
import { getMenuTree, menuTreeQueryKey, useMenuTree } from '../../../components/Pickers/api/get-menu-tree.ts';
import MenuDialog, { menuFormOf, type MenuForm } from './components/menu-dialog.tsx';

const TYPE_COLOR: Record<MenuType, string> = { Directory: 'blue', Menu: 'green', Button: 'orange' };

/** What a new child of `parent` most likely is: a screen under a directory, a button under a screen. */
const childTypeOf = (parent: MenuRow | undefined): MenuType => (!parent ? 'Directory' : parent.menuType === 'Menu' ? 'Button' : 'Menu');

/** Without any of these the rows have no actions: the action column is left out. */
const ACTION_CODES = 'system_menu_add|system_menu_update|system_menu_delete';

/**
 * Menus (system/menu): every menu of the tenant with its buttons as a tree table — type, icon,
 * route, component, flags and an enable switch — with add (top level or below a row), edit and delete.
 */
export default function MenuPage() {
  const { t } = useTranslation();
  const can = useAuth();
  const language = useGlobalStore((s) => s.language);
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<MenuRow>>(undefined);
  const dialog = useFormDialog<MenuForm>();
  const openDialog = dialog.open;
  const fullTree = useMenuTree();
  const [rows, setRows] = useState<MenuRow[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const firstLoad = useRef(true);
  const searching = useRef(false);

  const titleOf = useCallback((row: MenuRow) => (language === 'en' ? row.metaTitleEn || row.metaTitle : row.metaTitle || row.metaTitleEn), [language]);

  const request = useCallback(async (params: QueryParams) => {
    const enabled = params.enabled === undefined ? undefined : String(params.enabled) === 'true';
    const text = String(params.title ?? '')
      .trim()
      .toLowerCase();
    const type = params.menuType ? String(params.menuType) : '';
    searching.current = !!text || !!type;
    const tree = await getMenuTree(enabled);
    const data =
      text || type
        ? filterTree(
            tree,
            (m) =>
              (!type || m.menuType === type) &&
              (!text || [m.metaTitle, m.metaTitleEn, m.name, m.path].some((v) => v?.toLowerCase().includes(text))),
          )
        : tree;
    const total = countTree(data);
    return { data, pagination: { current: 1, pageSize: total, total } };
  }, []);

  // First view: directories open, so every screen shows and the buttons stay folded under their screen.
  // After a search: everything open. A reload after a save keeps what the user opened.
  const onLoad = useCallback((data: MenuRow[]) => {
    setRows(data);
    if (searching.current) setExpanded(parentIds(data));
    else if (firstLoad.current) setExpanded(treeIds(data, (m) => m.menuType === 'Directory' && !!m.children?.length));
    firstLoad.current = false;
  }, []);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: menuTreeQueryKey });
  }, [queryClient]);

  const writes = useRecordWrites<MenuRow>({ table: tableRef, enable: enableMenus, remove: deleteMenus, changed });

  const addUnder = useCallback(
    (parent: MenuRow | undefined) =>
      openDialog('add', { parentId: parent?.id ?? null, menuType: childTypeOf(parent), sort: 0, metaIsKeepAlive: true, metaIsHide: false, metaIsFull: false, metaIsAffix: false }),
    [openDialog],
  );

  const columns = useMemo<ProColumn<MenuRow>[]>(() => {
    const typeEnum: ValueEnum = {
      Directory: { text: t('system.menu.typeDirectory'), color: TYPE_COLOR.Directory },
      Menu: { text: t('system.menu.typeMenu'), color: TYPE_COLOR.Menu },
      Button: { text: t('system.menu.typeButton'), color: TYPE_COLOR.Button },
    };
    const statusEnum: ValueEnum = {
      true: { text: t('system.common.enabled'), color: 'green' },
      false: { text: t('system.common.disabled'), color: 'default' },
    };
    const list: ProColumn<MenuRow>[] = [
        {
          prop: 'metaTitle',
          title: t('system.menu.title'),
          lockSetting: true,
          width: 250,
          render: (_, row) => (
            <Space size={6}>
              <MenuIcon name={row.metaIcon} style={{ opacity: 0.75 }} />
              <span>{titleOf(row)}</span>
            </Space>
          ),
        },
        { prop: 'title', title: t('system.menu.title'), hideInTable: true, search: { order: 0, placeholder: t('system.menu.search') } },
        {
          prop: 'menuType',
          title: t('system.menu.type'),
          width: 90,
          align: 'center',
          search: { order: 1 },
          valueEnum: typeEnum,
        },
        {
          prop: 'metaIcon',
          title: t('system.menu.icon'),
          width: 64,
          align: 'center',
          render: (_, row) =>
            row.metaIcon ? (
              <Tooltip title={row.metaIcon}>
                <MenuIcon name={row.metaIcon} style={{ fontSize: 16 }} />
              </Tooltip>
            ) : (
              ''
            ),
        },
        {
          prop: 'name',
          title: `${t('system.menu.name')} / ${t('system.menu.code')}`,
          render: (_, row) => (
            <Typography.Text code copyable={{ text: row.name }} style={{ fontSize: 12 }}>
              {row.name}
            </Typography.Text>
          ),
        },
        { prop: 'path', title: t('system.menu.path'), render: (v) => (v as string) || '' },
        { prop: 'component', title: t('system.menu.component'), render: (v) => (v as string) || '' },
        {
          prop: 'flags',
          title: t('system.menu.flags'),
          render: (_, row) =>
            row.menuType === 'Button' ? null : (
              <Space size={[4, 4]} wrap>
                {row.metaIsHide && <Tag>{t('system.menu.isHide')}</Tag>}
                {row.metaIsFull && <Tag color="purple">{t('system.menu.isFull')}</Tag>}
                {row.metaIsAffix && <Tag color="cyan">{t('system.menu.isAffix')}</Tag>}
                {row.metaIsKeepAlive && <Tag color="geekblue">{t('system.menu.isKeepAlive')}</Tag>}
                {row.metaIsLink && <Tag color="magenta">{t('system.menu.link')}</Tag>}
              </Space>
            ),
        },
        { prop: 'sort', title: t('system.common.sort'), width: 70, align: 'center' },
        {
          prop: 'enabled',
          title: t('system.common.status'),
          width: 90,
          align: 'center',
          search: { order: 2 },
          valueEnum: statusEnum,
          render: (_, row) =>
            can('system_menu_enable') ? (
              <StatusSwitch record="system_menu" id={row.id} checked={row.enabled} onChange={(on) => writes.setEnabled([row], on)} />
            ) : (
              <Tag color={row.enabled ? 'green' : 'default'}>{row.enabled ? t('system.common.enabled') : t('system.common.disabled')}</Tag>
            ),
        },
        {
          prop: 'operation',
          title: t('system.common.operation'),
          fixed: 'right',
          hideInSetting: true,
          render: (_, row) => (
            <Space size={0}>
              {row.menuType !== 'Button' && (
                <Auth code="system_menu_add">
                  <Tooltip title={t('system.dept.addChild')}>
                    <Button type="link" size="small" icon={<PlusOutlined />} onClick={() => addUnder(row)} data-testid={`row-add-${row.id}`}>
                      {t('system.common.add')}
                    </Button>
                  </Tooltip>
                </Auth>
              )}
              <Auth code="system_menu_update">
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => openDialog('edit', menuFormOf(row))} data-testid={`row-edit-${row.id}`}>
                  {t('system.common.edit')}
                </Button>
              </Auth>
              <Auth code="system_menu_delete">
                {row.isDefault ? (
                  <Tooltip title={t('system.menu.defaultTip')}>
                    <Button type="link" size="small" danger disabled icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                      {t('system.common.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Popconfirm title={t('system.common.deleteConfirm', { name: titleOf(row) })} onConfirm={() => writes.remove([row])} okButtonProps={{ danger: true }}>
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
  }, [t, can, titleOf, writes, addUnder, openDialog]);

  const allParents = useMemo(() => parentIds(rows), [rows]);

  return (
    <div data-testid="menu-page">
      <ProTable<MenuRow>
        columns={columns}
        request={request}
        rowKey="id"
        listType="system_menu"
        pagination={false}
        actionRef={tableRef}
        onLoad={onLoad}
        size="middle"
        data-testid="menu-table"
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]), indentSize: 20 }}
        toolbar={
          <>
            <Auth code="system_menu_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => addUnder(undefined)} data-testid="menu-add">
                {t('system.common.add')}
              </Button>
            </Auth>
            <Button icon={<PlusSquareOutlined />} onClick={() => setExpanded(allParents)} data-testid="menu-expand">
              {t('system.common.expandAll')}
            </Button>
            <Button icon={<MinusSquareOutlined />} onClick={() => setExpanded([])} data-testid="menu-collapse">
              {t('system.common.collapseAll')}
            </Button>
          </>
        }
      />
      <MenuDialog {...dialog.props} tree={fullTree.data ?? []} onSaved={changed} />
    </div>
  );
}
