import type { PayType } from '@p8/contract/basic';
import SimpleRecordPage from '../../../components/RecordKit/SimpleRecordPage.tsx';
import { createPayType } from './api/create-pay-type.ts';
import { deletePayTypes } from './api/delete-pay-types.ts';
import { enablePayTypes } from './api/enable-pay-types.ts';
import { PAYTYPE_PATH } from './api/list-pay-types.ts';
import { updatePayType } from './api/update-pay-type.ts';

/** Basic records → pay types (menu basic_paytype): the settlement methods of payments and receipts. */
export default function PayTypePage() {
  return (
    <SimpleRecordPage<PayType>
      record="basic_paytype"
      section="basic-partner.paytype"
      listPath={PAYTYPE_PATH}
      importPath={`${PAYTYPE_PATH}/import`}
      exportPath={`${PAYTYPE_PATH}/export`}
      template="paytype"
      add={createPayType}
      update={updatePayType}
      remove={deletePayTypes}
      enable={enablePayTypes}
    />
  );
}
