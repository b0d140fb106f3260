import PartnerBalances from '../../../components/Finance/PartnerBalances.tsx';

/** Finance → payables (menu finance_payable): per supplier, aging and the running ledger. */
export default function PayablePage() {
  return <PartnerBalances side="payable" />;
}
