import { useCallback, useEffect } from 'react';
import { Alert, Form, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MenuType } from '@p8/contract/menu';
import type { MenuRow, Role } from '@p8/contract/system';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import MenuIcon from '../../../../components/MenuIcon/index.tsx';
import { useGlobalStore } from '../../../../stores/global.ts';
import { useMenuTree } from '../../../../components/Pickers/api/get-menu-tree.ts';
import { getRolePermission } from '../api/get-role-permission.ts';
import { setRolePermission } from '../api/set-role-permission.ts';
import CheckTree from './check-tree.tsx';

interface PermissionForm {
  menuIds: number[];
}

const TYPE_COLOR: Record<MenuType, string> = { Directory: 'blue', Menu: 'green', Button: 'orange' };

/** A menu is found by either title or its route name / button code. */
const menuSearchText = (menu: MenuRow) => `${menu.metaTitle} ${menu.metaTitleEn} ${menu.name}`;

/** The tree field; it fills itself once the role's current grants arrive. */
function PermissionField({ role }: { role: Role }) {
  const { t } = useTranslation();
  const language = useGlobalStore((s) => s.language);
  const form = Form.useFormInstance<PermissionForm>();
  const menus = useMenuTree();
  const granted = useQuery({ queryKey: ['system', 'role', 'permission', role.id], queryFn: () => getRolePermission(role.id), staleTime: 0, gcTime: 0 });

  useEffect(() => {
    if (granted.data) form.setFieldValue('menuIds', granted.data);
  }, [granted.data, form]);

  const renderMenu = useCallback(
    (menu: MenuRow) => (
      <span className={`p8-check-tree-title${menu.enabled ? '' : ' p8-check-tree-off'}`}>
        {menu.menuType !== 'Button' && <MenuIcon name={menu.metaIcon} />}
        <span>{language === 'en' ? menu.metaTitleEn || menu.metaTitle : menu.metaTitle}</span>
        <Tag color={TYPE_COLOR[menu.menuType]}>{t(`system.menu.type${menu.menuType}`)}</Tag>
        {menu.menuType === 'Button' && <span className="p8-check-tree-code">{menu.name}</span>}
        {!menu.enabled && <Tag>{t('system.common.disabled')}</Tag>}
      </span>
    ),
    [language, t],
  );

  const loading = menus.isPending || granted.isPending;
  return (
    <Spin spinning={loading}>
      <Form.Item name="menuIds" noStyle>
        <CheckTree<MenuRow>
          nodes={menus.data ?? []}
          renderTitle={renderMenu}
          height={440}
          // Directories open: every screen shows, its buttons folded under it.
          defaultExpanded={(menus.data ?? []).filter((m) => m.menuType === 'Directory').map((m) => m.id)}
          searchText={menuSearchText}
          countText={(count) => t('system.role.permissionSelected', { count })}
          data-testid="role-permission-tree"
        />
      </Form.Item>
    </Spin>
  );
}

interface PermissionDialogProps {
  open: boolean;
  role: Role | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * The menus and buttons a role grants, as a checkable tree of every menu of the tenant. The super role
 * holds everything and cannot be set (its button is disabled on the list).
 */
export default function PermissionDialog({ open, role, onClose, onSaved }: PermissionDialogProps) {
  const { t } = useTranslation();
  const submit = async (values: PermissionForm) => {
    await setRolePermission({ id: role!.id, menuIds: values.menuIds ?? [] });
    onSaved();
  };
  return (
    <FormDialog<PermissionForm>
      open={open && !!role}
      mode={role?.isSuper ? 'view' : 'edit'}
      onClose={onClose}
      title={t('system.role.permissionTitle', { name: role?.roleName ?? '' })}
      initialValues={{ menuIds: [] }}
      width={720}
      layout="vertical"
      onSubmit={submit}
    >
      <Alert type={role?.isSuper ? 'warning' : 'info'} showIcon title={role?.isSuper ? t('system.role.superTip') : t('system.role.permissionTip')} style={{ marginBottom: 12 }} />
      {role && <PermissionField role={role} />}
    </FormDialog>
  );
}
