import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Radio } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { clearTenantData, type ClearDataType } from './api/clear-data.ts';

/**
 * Clear the tenant's business or basic data (initial administrator only). Strong confirmation:
 * the user picks the scope and types a confirmation phrase before the button unlocks.
 */
export default function ClearDataDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.clearData' });
  const { t: tc } = useTranslation(undefined, { keyPrefix: 'layout.common' });
  const [type, setType] = useState<ClearDataType>('business');
  const [typed, setTyped] = useState('');
  const word = t('confirmWord');
  const confirmed = typed.trim() === word;

  const close = () => {
    setTyped('');
    setType('business');
    onClose();
  };

  const mutation = useMutation({
    mutationFn: clearTenantData,
    onSuccess: () => {
      feedback.message.success(t('success'));
      close();
    },
  });

  return (
    <Modal
      open={open}
      title={t('title')}
      onCancel={close}
      destroyOnHidden
      width={500}
      data-testid="dialog-clear-data"
      footer={[
        <Button key="cancel" onClick={close}>
          {tc('cancel')}
        </Button>,
        <Button key="ok" danger type="primary" disabled={!confirmed} loading={mutation.isPending} onClick={() => mutation.mutate(type)} data-testid="clear-data-submit">
          {t('submit')}
        </Button>,
      ]}
    >
      <Alert type="error" showIcon title={t('warning')} style={{ marginBottom: 16 }} />
      <Form layout="vertical">
        <Form.Item label={t('type')}>
          <Radio.Group value={type} onChange={(e) => setType(e.target.value as ClearDataType)} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            <Radio value="business" data-testid="clear-data-business">
              <b>{t('business')}</b>
              <div className="p8-muted">{t('businessTip')}</div>
            </Radio>
            <Radio value="basic" data-testid="clear-data-basic">
              <b>{t('basic')}</b>
              <div className="p8-muted">{t('basicTip')}</div>
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          label={t('confirmLabel', { word })}
          validateStatus={typed && !confirmed ? 'error' : undefined}
          help={typed && !confirmed ? t('confirmMismatch') : undefined}
          style={{ marginBottom: 0 }}
        >
          <Input value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={word} data-testid="clear-data-confirm" autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
