import PartnerMoneyDocs from '../../../components/Finance/PartnerMoneyDocs.tsx';

/** Finance → payments (menu finance_payment): payments to suppliers, what they settle, add and abandon. */
export default function PaymentPage() {
  return <PartnerMoneyDocs side="payment" />;
}
