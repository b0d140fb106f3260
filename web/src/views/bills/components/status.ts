import type { BillStatus } from '@p8/contract/bills/status';

/** Tag colour of each status (lists, the form's title, the timeline). */
export const STATUS_COLOR: Record<BillStatus, string> = {
  Saved: 'default',
  Submitted: 'processing',
  UnAudit: 'gold',
  Audit: 'green',
  Refuse: 'red',
  Partially: 'cyan',
  Complete: 'blue',
  ManualCompletion: 'purple',
  AbandonAudit: 'orange',
  Merged: 'default',
};
