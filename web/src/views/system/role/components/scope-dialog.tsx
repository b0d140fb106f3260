import { useCallback } from 'react';
import { Form, Radio, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DataScope, DeptNode, Role } from '@p8/contract/system';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import { useDeptTree } from '../../../../components/Pickers/api/get-dept-tree.ts';
import { setRoleScope } from '../api/set-role-scope.ts';
import CheckTree from './check-tree.tsx';

interface ScopeForm {
  dataScope: DataScope;
  deptIds: number[];
}

interface ScopeDialogProps {
  open: boolean;
  role: Role | null;
  onClose: () => void;
  onSaved: () => void;
}

const SCOPES: Array<{ value: DataScope; label: string; tip: string }> = [
  { value: 'All', label: 'scopeAll', tip: 'scopeAllTip' },
  { value: 'Custom', label: 'scopeCustom', tip: 'scopeCustomTip' },
  { value: 'Dept', label: 'scopeDept', tip: 'scopeDeptTip' },
  { value: 'Self', label: 'scopeSelf', tip: 'scopeSelfTip' },
];

const deptSearchText = (dept: DeptNode) => dept.name;

/** A role's data scope: all data, custom departments (a checklist), own department, own data. */
export default function ScopeDialog({ open, role, onClose, onSaved }: ScopeDialogProps) {
  const { t } = useTranslation();
  const depts = useDeptTree();

  const submit = async (values: ScopeForm) => {
    await setRoleScope({ id: role!.id, dataScope: values.dataScope, deptIds: values.dataScope === 'Custom' ? values.deptIds ?? [] : [] });
    onSaved();
  };

  const renderDept = useCallback(
    (dept: DeptNode) => (
      <span className={`p8-check-tree-title${dept.enabled ? '' : ' p8-check-tree-off'}`}>
        {dept.name}
        {!dept.enabled && <Tag>{t('system.common.disabled')}</Tag>}
      </span>
    ),
    [t],
  );

  return (
    <FormDialog<ScopeForm>
      open={open && !!role}
      mode="edit"
      onClose={onClose}
      title={t('system.role.scopeTitle', { name: role?.roleName ?? '' })}
      initialValues={role ? { dataScope: role.dataScope, deptIds: role.deptIds } : undefined}
      width={620}
      layout="vertical"
      onSubmit={submit}
    >
      <Form.Item name="dataScope" label={t('system.role.dataScope')} rules={[{ required: true, message: t('error.PleaseSelectDataScope') }]}>
        <Radio.Group style={{ width: '100%' }} data-testid="role-scope-type">
          <Space orientation="vertical" size={8} style={{ width: '100%' }}>
            {SCOPES.map((scope) => (
              <Radio key={scope.value} value={scope.value} data-testid={`scope-option-${scope.value}`}>
                <span>{t(`system.role.${scope.label}`)}</span>
                <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                  {t(`system.role.${scope.tip}`)}
                </Typography.Text>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle dependencies={['dataScope']}>
        {({ getFieldValue }) =>
          getFieldValue('dataScope') === 'Custom' ? (
            <Form.Item
              name="deptIds"
              label={t('system.role.scopeDepts')}
              rules={[{ required: true, type: 'array', min: 1, message: t('error.PleaseSelectDept') }]}
            >
              <CheckTree<DeptNode>
                nodes={depts.data ?? []}
                renderTitle={renderDept}
                height={300}
                // A department's data does not include its parent's: linkage goes down only.
                linkUp={false}
                searchText={deptSearchText}
                countText={(count) => t('system.role.scopeSelected', { count })}
                data-testid="role-scope-depts"
              />
            </Form.Item>
          ) : null
        }
      </Form.Item>
    </FormDialog>
  );
}
