import ServiceOrderList from '../../../components/ServiceOrder/ServiceOrderList.tsx';

/** Service → my orders: the orders dispatched to me, to start and complete, detail with chat. */
export default function MyOrderPage() {
  return <ServiceOrderList scope="myOrder" />;
}
