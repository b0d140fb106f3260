import type { Partner } from '@p8/contract/basic';
import PartnerPicker, { type PartnerPickerProps } from './PartnerPicker.tsx';

export type SupplierPickerProps = PartnerPickerProps;
export type PickedSupplier = Partner;

/**
 * Choose suppliers for a bill: keyword over code / name / short name / phone, paging, single or multiple
 * selection; only enabled suppliers within the user's assignment range are offered.
 *
 * ```tsx
 * <SupplierPicker open={open} multiple={false} onClose={() => setOpen(false)} onOk={([s]) => form.setFieldValue('supplierId', s.id)} />
 * ```
 */
export default function SupplierPicker(props: SupplierPickerProps) {
  return <PartnerPicker {...props} kind="supplier" />;
}
