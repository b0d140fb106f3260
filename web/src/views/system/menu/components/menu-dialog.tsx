import { useMemo, type ReactNode } from 'react';
import { Alert, Col, Form, Input, Radio, Row, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MenuType } from '@p8/contract/menu';
import type { MenuRow } from '@p8/contract/system';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import MenuIcon from '../../../../components/MenuIcon/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { useGlobalStore } from '../../../../stores/global.ts';
import { mapTree, subtreeIds, walkTree } from '../../../../components/Tree/tree-utils.ts';
import { useLabelCol } from '../../../../components/FormDialog/use-label-col.ts';
import { addMenu } from '../api/add-menu.ts';
import { updateMenu } from '../api/update-menu.ts';
import IconPicker from './icon-picker.tsx';

/** The form of a menu item: every field a menu item has. */
export interface MenuForm {
  id?: number;
  /** A template item: its name and type are fixed. */
  isDefault?: boolean;
  menuType: MenuType;
  parentId?: number | null;
  name: string;
  metaTitle: string;
  metaTitleEn?: string;
  sort?: number;
  path?: string;
  component?: string | null;
  redirect?: string | null;
  metaIcon?: string | null;
  metaActiveMenu?: string | null;
  metaIsLink?: string | null;
  metaIsHide?: boolean;
  metaIsFull?: boolean;
  metaIsAffix?: boolean;
  metaIsKeepAlive?: boolean;
}

/** Route names and button codes (contract: a letter, then letters, digits, `_` or `-`). */
const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

interface ParentOption {
  title: ReactNode;
  value: number;
  disabled?: boolean;
  children?: ParentOption[];
}

/** The form of a row for editing. */
export function menuFormOf(row: MenuRow): MenuForm {
  return {
    id: row.id,
    isDefault: row.isDefault,
    menuType: row.menuType,
    parentId: row.parentId,
    name: row.name,
    metaTitle: row.metaTitle,
    metaTitleEn: row.metaTitleEn,
    sort: row.sort,
    path: row.path,
    component: row.component,
    redirect: row.redirect,
    metaIcon: row.metaIcon,
    metaActiveMenu: row.metaActiveMenu,
    metaIsLink: row.metaIsLink,
    metaIsHide: row.metaIsHide,
    metaIsFull: row.metaIsFull,
    metaIsAffix: row.metaIsAffix,
    metaIsKeepAlive: row.metaIsKeepAlive,
  };
}

function Fields({ tree, editingId, fixed }: { tree: MenuRow[]; editingId?: number; fixed: boolean }) {
  const { t } = useTranslation();
  const language = useGlobalStore((s) => s.language);
  const menuType = Form.useWatch<MenuType | undefined>('menuType') ?? 'Menu';
  const isButton = menuType === 'Button';

  // Screens hang under a Directory or a Menu; a Button only under a Menu; nothing hangs under a Button,
  // and an item never under itself or its own descendants.
  const parentOptions = useMemo(() => {
    const blocked = subtreeIds(tree, editingId);
    const screens = (rows: MenuRow[]): MenuRow[] =>
      rows.filter((r) => r.menuType !== 'Button').map((r) => ({ ...r, children: r.children ? screens(r.children) : undefined }));
    return mapTree<MenuRow, ParentOption>(screens(tree), (row, children) => ({
      value: row.id,
      title: (
        <span>
          <MenuIcon name={row.metaIcon} style={{ marginInlineEnd: 6 }} />
          {language === 'en' ? row.metaTitleEn || row.metaTitle : row.metaTitle}
        </span>
      ),
      disabled: blocked.has(row.id) || (isButton && row.menuType !== 'Menu'),
      children,
    }));
  }, [tree, editingId, isButton, language]);

  const typeOf = useMemo(() => {
    const types = new Map<number, MenuType>();
    walkTree(tree, (row) => types.set(row.id, row.menuType));
    return types;
  }, [tree]);

  const text = (label: string) => t('system.common.inputPlaceholder', { label });

  return (
    <>
      {fixed && <Alert type="info" showIcon title={t('system.menu.defaultTip')} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item name="menuType" label={t('system.menu.type')} rules={[{ required: true }]}>
            <Radio.Group disabled={fixed} optionType="button" buttonStyle="solid" data-testid="menu-type">
              <Radio.Button value="Directory">{t('system.menu.typeDirectory')}</Radio.Button>
              <Radio.Button value="Menu">{t('system.menu.typeMenu')}</Radio.Button>
              <Radio.Button value="Button">{t('system.menu.typeButton')}</Radio.Button>
            </Radio.Group>
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item
            name="parentId"
            label={t('system.menu.parent')}
            tooltip={isButton ? t('system.menu.parentButtonTip') : undefined}
            dependencies={['menuType']}
            rules={[
              {
                validator: async (_, parentId: number | null | undefined) => {
                  const parentType = parentId ? typeOf.get(parentId) : undefined;
                  if (isButton ? parentType !== 'Menu' : parentType === 'Button') throw new Error(t(isButton ? 'system.menu.parentButtonTip' : 'error.PleaseSelectParent'));
                },
              },
            ]}
          >
            <TreeSelect
              allowClear
              showSearch
              treeNodeFilterProp="title"
              treeData={parentOptions}
              placeholder={isButton ? t('system.common.selectPlaceholder', { label: t('system.menu.parent') }) : t('system.menu.parentPlaceholder')}
              listHeight={320}
              treeDefaultExpandedKeys={[]}
              data-testid="menu-parent"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="metaTitle"
            label={t('system.menu.titleZh')}
            rules={[{ required: true, whitespace: true, message: t('error.PleaseInputName') }, { max: 100, message: t('error.NameTooLong') }]}
          >
            <Input maxLength={100} placeholder={text(t('system.menu.titleZh'))} data-testid="menu-title" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="metaTitleEn" label={t('system.menu.titleEn')} rules={[{ max: 100, message: t('error.NameTooLong') }]}>
            <Input maxLength={100} placeholder={t('system.menu.titleEnPlaceholder')} data-testid="menu-title-en" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="name"
            label={isButton ? t('system.menu.code') : t('system.menu.name')}
            tooltip={isButton ? t('system.menu.codeTip') : t('system.menu.nameTip')}
            rules={[
              { required: true, whitespace: true, message: t('error.PleaseInputMenuName') },
              { pattern: NAME_PATTERN, message: t('system.menu.namePattern') },
              { max: 100 },
            ]}
          >
            <Input maxLength={100} disabled={fixed} placeholder={isButton ? 'system_role_add' : 'system_role'} data-testid="menu-name" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="sort" label={t('system.common.sort')}>
            <NumberInput integer min={0} max={999999} />
          </Form.Item>
        </Col>
        {!isButton && (
          <>
            <Col xs={24} sm={12}>
              <Form.Item
                name="path"
                label={t('system.menu.path')}
                tooltip={t('system.menu.pathTip')}
                rules={[{ required: true, whitespace: true, message: t('error.PleaseInputMenuPath') }, { max: 200 }]}
              >
                <Input maxLength={200} placeholder="/system/role" data-testid="menu-path" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="component" label={t('system.menu.component')} tooltip={t('system.menu.componentTip')} rules={[{ max: 200 }]}>
                <Input maxLength={200} placeholder="system/role/index" data-testid="menu-component" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="redirect" label={t('system.menu.redirect')} rules={[{ max: 200 }]}>
                <Input maxLength={200} placeholder="/system/department" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="metaIcon" label={t('system.menu.icon')} rules={[{ max: 100 }]}>
                <IconPicker />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="metaActiveMenu" label={t('system.menu.activeMenu')} tooltip={t('system.menu.activeMenuTip')} rules={[{ max: 200 }]}>
                <Input maxLength={200} placeholder="/system/role" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="metaIsLink" label={t('system.menu.link')} tooltip={t('system.menu.linkTip')} rules={[{ max: 500 }, { type: 'url', message: t('error.ParamError') }]}>
                <Input maxLength={500} placeholder="https://" />
              </Form.Item>
            </Col>
            {(
              [
                ['metaIsHide', 'isHide'],
                ['metaIsFull', 'isFull'],
                ['metaIsAffix', 'isAffix'],
                ['metaIsKeepAlive', 'isKeepAlive'],
              ] as const
            ).map(([name, key]) => (
              <Col xs={24} sm={12} key={name}>
                <Form.Item name={name} label={t(`system.menu.${key}`)} tooltip={t(`system.menu.${key}Tip`)} valuePropName="checked">
                  <Switch data-testid={`menu-${key}`} />
                </Form.Item>
              </Col>
            ))}
          </>
        )}
      </Row>
    </>
  );
}

interface MenuDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<MenuForm>;
  onClose: () => void;
  tree: MenuRow[];
  onSaved: () => void;
}

/** Add / edit a menu item: a Directory, a Menu (screen) or a Button (permission code). */
export default function MenuDialog({ tree, onSaved, ...dialog }: MenuDialogProps) {
  const { t } = useTranslation();
  const labelCol = useLabelCol();
  const editingId = dialog.mode === 'add' ? undefined : dialog.initialValues?.id;
  const fixed = dialog.mode !== 'add' && !!dialog.initialValues?.isDefault;

  const submit = async (values: MenuForm, mode: FormMode) => {
    const common = {
      menuType: values.menuType,
      parentId: values.parentId ?? null,
      name: values.name.trim(),
      metaTitle: values.metaTitle.trim(),
      metaTitleEn: values.metaTitleEn?.trim() ?? '',
      sort: values.sort ?? 0,
    };
    const screen =
      values.menuType === 'Button'
        ? {}
        : {
            path: values.path?.trim() ?? '',
            component: values.component?.trim() || null,
            redirect: values.redirect?.trim() || null,
            metaIcon: values.metaIcon?.trim() || null,
            metaActiveMenu: values.metaActiveMenu?.trim() || null,
            metaIsLink: values.metaIsLink?.trim() || null,
            metaIsHide: !!values.metaIsHide,
            metaIsFull: !!values.metaIsFull,
            metaIsAffix: !!values.metaIsAffix,
            metaIsKeepAlive: !!values.metaIsKeepAlive,
          };
    if (mode === 'add') await addMenu({ ...common, ...screen });
    else await updateMenu({ ...common, ...screen, id: editingId! });
    onSaved();
  };

  return (
    <FormDialog<MenuForm> {...dialog} labelCol={labelCol} entity={t('system.menu.entity')} width={820} onSubmit={submit}>
      <Fields tree={tree} editingId={editingId} fixed={fixed} />
    </FormDialog>
  );
}
