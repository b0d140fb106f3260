import { useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import Auth from '../../../components/Auth/index.tsx';
import ServiceOrderList from '../../../components/ServiceOrder/ServiceOrderList.tsx';
import ProxyOrderDialog from './components/proxy-order-dialog.tsx';

/** Service → proxy orders: orders staff placed for customers, and placing one. */
export default function ProxyOrderPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'service' });
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState(0);
  return (
    <>
      <ServiceOrderList
        scope="proxyOrder"
        reloadKey={saved}
        toolbar={
          <Auth code="service_proxyOrder_add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="proxy-order-add">
              {t('proxy.add')}
            </Button>
          </Auth>
        }
      />
      <ProxyOrderDialog open={open} onClose={() => setOpen(false)} onSaved={() => setSaved((n) => n + 1)} />
    </>
  );
}
