import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PartnerKind } from '@p8/contract/basic';
import PartnerPicker from '../Pickers/PartnerPicker.tsx';

/** A picked supplier or customer as the form keeps it: its id (what is sent) and its name (what is shown). */
export interface PickedPartner {
  id: number;
  name: string;
}

/** A supplier or customer field: the name, and the picker to change it (`<testid>` on the input). */
export default function PartnerPick({ kind, value, onChange, ...rest }: { kind: PartnerKind; value?: PickedPartner; onChange?: (v: PickedPartner) => void; 'data-testid'?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input readOnly value={value?.name ?? ''} placeholder={t('bill.pick')} onClick={() => setOpen(true)} data-testid={rest['data-testid']} />
      <Button icon={<SearchOutlined />} onClick={() => setOpen(true)} aria-label={t('bill.pick')} />
      {open && (
        <PartnerPicker
          kind={kind}
          open
          multiple={false}
          onClose={() => setOpen(false)}
          onOk={([row]) => {
            if (row) onChange?.({ id: row.id, name: row.name });
            setOpen(false);
          }}
        />
      )}
    </Space.Compact>
  );
}
