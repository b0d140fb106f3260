import PartnerMoneyDocs from '../../../components/Finance/PartnerMoneyDocs.tsx';

/** Finance → receipts (menu finance_receipt): receipts from customers, what they settle, add and abandon. */
export default function ReceiptPage() {
  return <PartnerMoneyDocs side="receipt" />;
}
