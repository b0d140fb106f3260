import { useMemo } from 'react';
import { Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Partner, PartnerKind } from '@p8/contract/basic';
import { pickPartners } from './api/pick-partners.ts';
import PickerModal from './PickerModal.tsx';

export interface PartnerPickerProps {
  open: boolean;
  onClose: () => void;
  /** The chosen suppliers / customers (enabled ones within the user's assignment range). */
  onOk: (rows: Partner[]) => void;
  /** Several (default) or one. */
  multiple?: boolean;
  /** Already on the bill: listed but not selectable. */
  disabledIds?: number[];
  initialSelected?: Partner[];
  title?: string;
  /** The first search (what was typed in the field that opened the picker). */
  keyword?: string;
}

/** Supplier or customer picker (SupplierPicker / CustomerPicker are this with the kind fixed). */
export default function PartnerPicker({ kind, ...props }: PartnerPickerProps & { kind: PartnerKind }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const columns = useMemo<TableColumnsType<Partner>>(
    () => [
      { key: 'code', dataIndex: 'code', title: t(`partner.${kind}.code`), width: 140 },
      { key: 'name', dataIndex: 'name', title: t(`partner.${kind}.name`), width: 220, render: (v: string, r) => (r.shortName ? <>{v} <Typography.Text type="secondary">({r.shortName})</Typography.Text></> : v) },
      { key: 'phone', dataIndex: 'phone', title: t('partner.phone'), width: 140, render: (v: string) => v || t('common.none') },
      { key: 'managerName', dataIndex: 'managerName', title: t('partner.manager'), width: 110, render: (v: string | null) => v || t('common.none') },
      { key: 'taxNumber', dataIndex: 'taxNumber', title: t('partner.taxNumber'), width: 180, render: (v: string) => v || t('common.none') },
    ],
    [t, kind],
  );
  return (
    <PickerModal<Partner>
      {...props}
      title={props.title ?? t(`picker.${kind}Title`)}
      queryKey={[kind]}
      fetch={(params) => pickPartners(kind, params)}
      columns={columns}
      placeholder={t('picker.partnerKeyword')}
      labelOf={(row) => `${row.code} ${row.name}`}
      data-testid={`${kind}-picker`}
    />
  );
}
