import PartnerPage from '../../../components/Partner/PartnerPage.tsx';

/** Basic records → suppliers (menu basic_supplier). */
export default function SupplierPage() {
  return <PartnerPage kind="supplier" />;
}
