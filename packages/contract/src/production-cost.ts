import { z } from 'zod';
import { salaryPeriodSchema } from './bills/salary.ts';
import type { Label } from './bills/status.ts';

/**
 * Production's month-end cost run (`/api/admin/production/cost`): a period (YYYY-MM) is run as a background job
 * and becomes Calculated; its figures per production order; cancelling (反核算) makes it NotAccounted again.
 * docs/production.md "Cost accounting" describes the model.
 */

export const CostPeriodStatus = ['NotAccounted', 'Calculated'] as const;
export type CostPeriodStatus = (typeof CostPeriodStatus)[number];

export const COST_PERIOD_STATUS_LABELS: Record<CostPeriodStatus, Label> = {
  NotAccounted: { zh: '未核算', en: 'Not accounted' },
  Calculated: { zh: '已核算', en: 'Calculated' },
};

/** How the period's overhead (制造费用) is spread over the orders: reported hours, or equivalent output. */
export const OverheadBasis = ['hours', 'quantity'] as const;
export type OverheadBasis = (typeof OverheadBasis)[number];

export const OVERHEAD_BASIS_LABELS: Record<OverheadBasis, Label> = {
  hours: { zh: '按工时', en: 'By hours' },
  quantity: { zh: '按约当产量', en: 'By equivalent output' },
};

const periodSchema = salaryPeriodSchema.refine((v) => v.length > 0, { message: 'PleaseSelectCostPeriod' });

export const costRunSchema = z.object({
  period: periodSchema,
  basis: z.enum(OverheadBasis).default('hours'),
});
export type CostRunInput = z.infer<typeof costRunSchema>;

export const costPeriodParamsSchema = z.object({ period: periodSchema });

export interface CostPeriodRow {
  period: string;
  status: CostPeriodStatus;
  basis: OverheadBasis;
  /** The overhead waiting to be allocated at the period's end, and what found no order. */
  overhead: string;
  unallocated: string;
  orders: number;
  calculatedAt: string | null;
  calculatedBy: string;
}

/** One product's cost on one order in a calculated period (an order making several products has a row for each). */
export interface CostOrderRow {
  orderId: number;
  orderCode: string;
  /** The product. */
  materialId: number;
  materialCode: string;
  materialName: string;
  planned: string;
  completed: string;
  unfinished: string;
  /** Degree of completion of the unfinished units (0..1) for labour and overhead. */
  degree: string;
  hours: string;
  /** Work in progress brought into the period. */
  opening: string;
  material: string;
  /** Of `material`, what the run added to the cost of the sub-assemblies the order picked (逐步结转). */
  rolledIn: string;
  labour: string;
  overhead: string;
  /** What the period finished: its completions' cost, and per unit. */
  finished: string;
  unitCost: string;
  /** What the completions took in when audited (before the run). */
  perpetual: string;
  /** Work in progress carried to the next period. */
  closing: string;
}

export interface CostPeriodDetail {
  period: string;
  status: CostPeriodStatus;
  basis: OverheadBasis;
  overhead: string;
  unallocated: string;
  orders: CostOrderRow[];
}

/** What a run answers (the job's result). */
export interface CostRunResult {
  period: string;
  orders: number;
  overhead: string;
  unallocated: string;
  finished: string;
  /** What the run moved onto the completions (stock and cost of sales) beyond what they held. */
  adjusted: string;
}
