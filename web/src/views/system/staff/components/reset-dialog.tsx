import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Staff } from '@p8/contract/system';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import { useLabelCol } from '../../../../components/FormDialog/use-label-col.ts';
import { resetStaffPassword } from '../api/reset-staff-password.ts';
import { useStaffRules } from './use-staff-rules.ts';

interface ResetForm {
  password: string;
  confirmPassword: string;
}

interface ResetDialogProps {
  open: boolean;
  staff: Staff | null;
  onClose: () => void;
}

/** Sets a new password for an account; the server signs it out everywhere. */
export default function ResetDialog({ open, staff, onClose }: ResetDialogProps) {
  const { t } = useTranslation();
  const labelCol = useLabelCol();
  const rules = useStaffRules();
  const label = staff ? (staff.realName ? `${staff.realName} (${staff.name})` : staff.name) : '';
  return (
    <FormDialog<ResetForm>
      labelCol={labelCol}
      open={open && !!staff}
      mode="edit"
      onClose={onClose}
      title={t('system.staff.resetTitle', { name: label })}
      successMessage={t('system.staff.resetOk')}
      width={520}
      onSubmit={(values) => resetStaffPassword({ id: staff!.id, password: values.password })}
    >
      <Alert type="warning" showIcon title={t('system.staff.resetTip')} style={{ marginBottom: 16 }} />
      <Form.Item name="password" label={t('system.staff.newPassword')} tooltip={rules.passwordTip || undefined} rules={rules.password}>
        <Input.Password maxLength={20} autoComplete="new-password" placeholder={rules.passwordTip || undefined} data-testid="staff-reset-password" />
      </Form.Item>
      <Form.Item name="confirmPassword" label={t('system.staff.confirmPassword')} dependencies={['password']} rules={rules.confirmPassword}>
        <Input.Password maxLength={20} autoComplete="new-password" data-testid="staff-reset-confirm" />
      </Form.Item>
    </FormDialog>
  );
}
