import { clockInSchema, DAY_RESULT_LABELS, monthQuerySchema, personMonthQuerySchema, reportQuerySchema, type ReportRow } from '@p8/contract/people';
import { recordRoutes, registerRecordTemplates } from '../../core/record-routes.ts';
import { listExportRoute } from '../../core/list-export.ts';
import { route, type ServerModule } from '../../core/route.ts';
import { clockIn, monthReport, personMonth } from './attendance.ts';
import { declaredPeopleDefinitions } from './records.ts';
import { registerPeopleUsage } from './usage.ts';
import { registerReplacementRules, replacementPunchHook } from './replacement.ts';

/**
 * People (人事) under /api/admin/people: the attendance records (calendars, shifts, attendance groups, clock
 * addresses — declared), the web clock-in with the caller's month, the month's attendance report, and the
 * rules of the replacement clock-in bill (its routes are the bill engine's) (docs/people.md).
 */
const URL = '/api/admin/people';
const tags = ['people'];

const reportColumns = [
  { prop: 'staffName', title: { zh: '员工', en: 'Staff member' }, width: 16 },
  { prop: 'groupName', title: { zh: '考勤组', en: 'Attendance group' }, width: 16 },
  { prop: 'workdays', title: { zh: '应出勤天数', en: 'Workdays' } },
  { prop: 'normal', title: DAY_RESULT_LABELS.normal },
  { prop: 'late', title: DAY_RESULT_LABELS.late },
  { prop: 'early', title: DAY_RESULT_LABELS.early },
  { prop: 'absent', title: DAY_RESULT_LABELS.absent },
  { prop: 'missing', title: DAY_RESULT_LABELS.missing },
  { prop: 'outside', title: { zh: '外勤打卡', en: 'Outside punches' } },
  { prop: 'replaced', title: { zh: '补卡次数', en: 'Replacements' } },
];

export const peopleModule: ServerModule = {
  name: 'people',
  routes: [
    ...declaredPeopleDefinitions.flatMap((definition) => recordRoutes(definition)),
    route({
      method: 'POST', url: `${URL}/clock`, tags, summary: 'Clock in at the browser position (refused outside every clock address unless the group records outside punches)',
      permission: 'people_clock_add', body: clockInSchema,
      handler: (ctx, { body }) => clockIn(ctx, body),
    }),
    route({
      method: 'GET', url: `${URL}/clock`, tags, summary: "The caller's days of a month, judged, with their punches",
      permission: 'people_clock', query: monthQuerySchema,
      handler: (ctx, { query }) => personMonth(ctx, ctx.account.adminId, query.month),
    }),
    route({
      method: 'GET', url: `${URL}/report`, tags, summary: "The month's attendance report: each group member's days counted by result",
      permission: 'people_report', query: reportQuerySchema, page: true,
      handler: (ctx, { query }) => monthReport(ctx, query),
    }),
    route({
      method: 'GET', url: `${URL}/report/days`, tags, summary: "One group member's days of a month, judged, with their punches",
      permission: 'people_report', query: personMonthQuerySchema,
      handler: (ctx, { query }) => personMonth(ctx, query.staffId, query.month),
    }),
    listExportRoute<ReportRow>({
      url: `${URL}/report`, tags, noun: 'attendance report', permission: 'people_report_export', columns: reportColumns,
      filename: { zh: '考勤月报', en: 'attendance report' },
      list: (ctx, query) => monthReport(ctx, reportQuerySchema.parse(query)),
    }),
  ],
  register(registries) {
    registerPeopleUsage(registries.recordUsage);
    // Replacement clock-in requests (a bill type of the engine): their rules, and the punch an audit records.
    registerReplacementRules(registries.billRules);
    registries.billPostingHooks.register('people: replacement punch', replacementPunchHook);
    registerRecordTemplates(registries, declaredPeopleDefinitions);
  },
};
