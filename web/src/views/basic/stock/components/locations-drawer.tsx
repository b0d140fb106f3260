import { Drawer, Typography } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Warehouse } from '@p8/contract/basic';
import LocationTable from '../../../../components/Location/LocationTable.tsx';

/** The storage locations of one warehouse, managed in place from the warehouse list. */
export default function LocationsDrawer({ warehouse, onClose }: { warehouse: Warehouse | null; onClose: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  return (
    <Drawer
      open={!!warehouse}
      onClose={onClose}
      size={960}
      destroyOnHidden
      title={
        warehouse && (
          <span>
            <EnvironmentOutlined /> {t('stock.locationsTitle', { name: warehouse.name })}
            <Typography.Text type="secondary" style={{ fontWeight: 'normal', marginInlineStart: 8 }}>
              {warehouse.code}
            </Typography.Text>
          </span>
        )
      }
      data-testid="locations-drawer"
      styles={{ body: { padding: 12, background: 'var(--ant-color-bg-layout, #f5f5f5)' } }}
    >
      {warehouse && <LocationTable warehouse={{ id: warehouse.id, name: warehouse.name }} />}
    </Drawer>
  );
}
