import type { ServiceOrderStatus } from '@p8/contract/service';

/** Tag colour of each status (lists, detail). */
export const STATUS_COLORS: Record<ServiceOrderStatus, string> = {
  PendingDispatch: 'orange',
  PendingAudit: 'gold',
  PendingService: 'blue',
  InService: 'processing',
  Completed: 'green',
  Cancelled: 'default',
};
