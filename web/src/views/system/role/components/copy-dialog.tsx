import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Role } from '@p8/contract/system';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import { useLabelCol } from '../../../../components/FormDialog/use-label-col.ts';
import { copyRole } from '../api/copy-role.ts';
import { ROLE_KEY_PATTERN } from './role-dialog.tsx';

interface CopyForm {
  roleKey: string;
  roleName: string;
}

interface CopyDialogProps {
  open: boolean;
  /** The role to copy (kept while the dialog closes). */
  source: Role | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Copies one role under a new key and name, with its data scope and permissions. */
export default function CopyDialog({ open, source, onClose, onSaved }: CopyDialogProps) {
  const { t } = useTranslation();
  const labelCol = useLabelCol();
  const submit = async (values: CopyForm) => {
    await copyRole({ id: source!.id, roleKey: values.roleKey.trim(), roleName: values.roleName.trim() });
    onSaved();
  };
  return (
    <FormDialog<CopyForm>
      labelCol={labelCol}
      open={open && !!source}
      mode="add"
      onClose={onClose}
      title={t('system.role.copyTitle', { name: source?.roleName ?? '' })}
      initialValues={source ? { roleKey: `${source.roleKey}_copy`, roleName: `${source.roleName} (copy)` } : undefined}
      successMessage={t('system.role.copied')}
      width={520}
      onSubmit={submit}
    >
      <Alert type="info" showIcon title={t('system.role.copyTip', { name: source?.roleName ?? '' })} style={{ marginBottom: 16 }} />
      <Form.Item name="roleName" label={t('system.role.roleName')} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputRoleName') }, { max: 50 }]}>
        <Input maxLength={50} data-testid="role-copy-name" />
      </Form.Item>
      <Form.Item
        name="roleKey"
        label={t('system.role.roleKey')}
        tooltip={t('system.role.roleKeyTip')}
        rules={[
          { required: true, whitespace: true, message: t('error.PleaseInputRoleKey') },
          { pattern: ROLE_KEY_PATTERN, message: t('system.menu.namePattern') },
          { max: 50 },
        ]}
      >
        <Input maxLength={50} data-testid="role-copy-key" />
      </Form.Item>
    </FormDialog>
  );
}
