import PartnerPage from '../partner/components/partner-page.tsx';

/** Basic records → customers (menu basic_customer). */
export default function CustomerPage() {
  return <PartnerPage kind="customer" />;
}
