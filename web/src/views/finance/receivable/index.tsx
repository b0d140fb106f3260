import PartnerBalances from '../../../components/Finance/PartnerBalances.tsx';

/** Finance → receivables (menu finance_receivable): per customer, aging and the running ledger. */
export default function ReceivablePage() {
  return <PartnerBalances side="receivable" />;
}
