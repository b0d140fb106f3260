import { z } from 'zod';
import { storableText } from './text.ts';
import type { SourceLineMaterial } from './bills/api.ts';

/*
 * The shop floor's quick report (工序汇报 · 快速报工, docs/production.md): a tablet screen listing the process
 * steps a worker may report — those dispatched to them or to a team they belong to, or every open step for
 * someone who holds the report screen — and reporting one as a process report pushed down from that step through
 * the bill engine's own routes. This is what the screen reads; the report itself is the engine's.
 */

/** The screen (its menu name); reading every open step takes the report screen, `production_report`. */
export const QUICK_REPORT_SCREEN = 'production_quickReport';

export const floorStepsQuerySchema = z.object({
  /** An order code (typed or scanned), a product's code or name, or a process's name. */
  keyword: storableText().trim().max(64, { message: 'ParamError' }).optional(),
});
export type FloorStepsQuery = z.infer<typeof floorStepsQuerySchema>;

/**
 * One open process step of an audited production order, its figures in the step's unit as exact decimal text:
 * the step's quantity, what audited reports counted of it (good, scrap, rework), and what may be reported now —
 * what the previous step passed (the order's quantity for the first step) less the good pieces reports of any
 * status took, the same figure the report's rule weighs.
 */
export interface FloorStep extends SourceLineMaterial {
  sourceLineId: number;
  orderId: number;
  orderCode: string;
  orderDate: string;
  /** The order's workshop: the report's, as push down copies it. */
  deptId: number | null;
  processId: number;
  processName: string;
  /** 1-based, among the product's steps on the order. */
  stepNo: number;
  teamId: number | null;
  pieceRate: string;
  quantity: string;
  reportedGood: string;
  reportedScrap: string;
  reportedRework: string;
  reportable: string;
  /** Whom audited dispatches gave the step to (workers and teams, by name), and their latest planned finish. */
  dispatchedTo: string[];
  planFinish: string | null;
}
