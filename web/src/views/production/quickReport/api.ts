import { billApiPath } from '@p8/contract/bills/registry';
import { ProcessReport } from '@p8/contract/bills/production';
import type { FloorStep } from '@p8/contract/shop-floor';
import { http } from '../../../app/http.ts';

/** The process report's own routes (the bill engine's): the quick report saves, submits and audits through them. */
export const REPORT_API = billApiPath(ProcessReport).replace(/^\/api/, '');
const STEPS = REPORT_API.replace(/\/report$/, '/quickReport');

/** GET /admin/production/quickReport/steps (production_quickReport) or …/allSteps (production_report). */
export const getFloorSteps = (all: boolean, keyword: string) => http.get<FloorStep[]>(`${STEPS}/${all ? 'allSteps' : 'steps'}`, keyword ? { keyword } : undefined, { noLoading: true });

/** POST the report (production_report_add): the engine's save, its line taken from the step (`sourceLineId`). */
export const saveReport = (body: Record<string, unknown>) => http.post<{ id: number }>(REPORT_API, body, { silent: true });
/** POST …/submit (production_report_submit) and …/audit (production_report_audit). */
export const reportStep = (operation: 'submit' | 'audit', id: number) => http.post<{ billStatus?: string }>(`${REPORT_API}/${operation}`, { id }, { silent: true });
/** The report as saved (its code and status). */
export const getReport = (id: number) => http.get<{ billCode: string; billStatus: string }>(`${REPORT_API}/${id}`, undefined, { noLoading: true });
