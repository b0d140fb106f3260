import PartnerPage from '../../../components/Partner/PartnerPage.tsx';

/** Basic records → customers (menu basic_customer). */
export default function CustomerPage() {
  return <PartnerPage kind="customer" />;
}
