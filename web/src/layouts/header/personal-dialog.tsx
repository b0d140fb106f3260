import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import UserInfoForm from '../../views/person/components/user-info-form.tsx';

/** Personal data from the user menu. */
export default function PersonalDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('layout.header.personal')} onCancel={onClose} footer={null} destroyOnHidden width={520} data-testid="dialog-personal">
      <UserInfoForm name="personalDialog" onSuccess={onClose} extra={<Button onClick={onClose}>{t('layout.common.cancel')}</Button>} />
    </Modal>
  );
}
