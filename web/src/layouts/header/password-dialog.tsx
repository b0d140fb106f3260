import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import PasswordForm from '../../views/person/components/password-form.tsx';

/** Change password from the user menu. */
export default function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('layout.password.title')} onCancel={onClose} footer={null} destroyOnHidden width={440} data-testid="dialog-password">
      <PasswordForm name="passwordDialog" onSuccess={onClose} extra={<Button onClick={onClose}>{t('layout.common.cancel')}</Button>} />
    </Modal>
  );
}
