import type { Partner } from '@p8/contract/basic';
import PartnerPicker, { type PartnerPickerProps } from './PartnerPicker.tsx';

export type CustomerPickerProps = PartnerPickerProps;
export type PickedCustomer = Partner;

/**
 * Choose customers for a bill: keyword over code / name / short name / phone, paging, single or multiple
 * selection; only enabled customers within the user's assignment range are offered.
 */
export default function CustomerPicker(props: CustomerPickerProps) {
  return <PartnerPicker {...props} kind="customer" />;
}
