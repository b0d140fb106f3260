import PartnerPage from '../partner/components/partner-page.tsx';

/** Basic records → suppliers (menu basic_supplier). */
export default function SupplierPage() {
  return <PartnerPage kind="supplier" />;
}
