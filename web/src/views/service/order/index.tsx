import ServiceOrderList from '../../../components/ServiceOrder/ServiceOrderList.tsx';

/** Service → orders: every order of the tenant by status, dispatch, review and cancel, detail with chat. */
export default function ServiceOrderPage() {
  return <ServiceOrderList scope="order" />;
}
