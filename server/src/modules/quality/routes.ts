import { applicableTemplateQuerySchema, INSPECTION_KIND_LABELS, openRejectsQuerySchema, passRateQuerySchema, type OpenRejectRow, type PassRateRow } from '@p8/contract/quality';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath, billButtonCode, billMenuName } from '@p8/contract/bills/registry';
import { boxCreateSchema, boxListQuerySchema } from '@p8/contract/quality';
import { idsSchema } from '@p8/contract/common';
import { listBoxes, packBox, unpackBoxes } from './boxes.ts';
import { recordRoutes, registerRecordTemplates } from '../../core/record-routes.ts';
import { route, type ServerModule } from '../../core/route.ts';
import { listExportRoute, type ListExportColumn } from '../../core/list-export.ts';
import { passRate } from './pass-rate.ts';
import { openRejects } from './open-rejects.ts';
import { applicableTemplates } from '../../bills/inspection.ts';
import { declaredQualityDefinitions } from './records.ts';
import { registerQualityBlockers, registerQualityRules } from './rules.ts';

/**
 * Quality (质量管理) under /api/admin/quality: the inspection templates (declared records), the template an
 * inspection line follows (for the inspection forms' readings), and the inspections' own rules — the reports
 * themselves are bill types (packages/contract/src/bills/quality.ts), served by the bill engine (docs/quality.md).
 */
const URL = '/api/admin/quality';
const tags = ['quality'];

/** The inspection screens: whoever holds one reads the template its lines follow. */
const INSPECTION_SCREENS = BILL_TYPES.filter((decl) => decl.inspection).map(billMenuName);

const PASS_RATE_COLUMNS: Array<ListExportColumn<PassRateRow>> = [
  { prop: 'name', title: { zh: '名称', en: 'Name' }, width: 24 },
  { prop: 'lines', title: { zh: '检验次数', en: 'Inspections' } },
  { prop: 'inspected', title: { zh: '检验数量', en: 'Inspected' } },
  { prop: 'accepted', title: { zh: '合格数', en: 'Accepted' } },
  { prop: 'concession', title: { zh: '让步接收数', en: 'Concession' } },
  { prop: 'rejected', title: { zh: '不合格数', en: 'Rejected' } },
  { prop: 'passRate', title: { zh: '合格率(%)', en: 'Pass rate (%)' } },
];

const OPEN_REJECT_COLUMNS: Array<ListExportColumn<OpenRejectRow>> = [
  { prop: 'inspectionKind', title: { zh: '检验类型', en: 'Inspection' }, value: (r, lang) => INSPECTION_KIND_LABELS[r.inspectionKind][lang] },
  { prop: 'inspections', title: { zh: '检验单', en: 'Inspection reports' }, width: 24 },
  { prop: 'lastDate', title: { zh: '检验日期', en: 'Inspected on' } },
  { prop: 'sourceBillCode', title: { zh: '源单', en: 'Source bill' }, width: 20 },
  { prop: 'partnerName', title: { zh: '往来单位', en: 'Partner' }, width: 20 },
  { prop: 'materialCode', title: { zh: '物料编码', en: 'Material code' } },
  { prop: 'materialName', title: { zh: '物料名称', en: 'Material' }, width: 20 },
  { prop: 'rejected', title: { zh: '不合格数', en: 'Rejected' } },
  { prop: 'intoRejects', title: { zh: '已入不良品仓', en: 'In reject warehouses' } },
  { prop: 'open', title: { zh: '待处理数', en: 'Open' } },
];

/**
 * The boxes of each inspection type that packs (`packs`), beside its own routes: read with its screen, packed and
 * unpacked with its update button — the inspection's result is what changes.
 */
const boxRoutes = BILL_TYPES.filter((decl) => decl.packs).flatMap((decl) => {
  const url = `${billApiPath(decl)}/box`;
  const noun = decl.label.en.toLowerCase();
  return [
    route({ method: 'GET', url, tags, summary: `The boxes of a ${noun}`, permission: billMenuName(decl), query: boxListQuerySchema, handler: (ctx, { query }) => listBoxes(ctx, decl, query.billId) }),
    route({ method: 'POST', url, tags, summary: `Pack accepted goods of a ${noun} line into a box`, permission: billButtonCode(decl, 'update'), body: boxCreateSchema, handler: (ctx, { body }) => packBox(ctx, decl, body) }),
    route({
      method: 'DELETE', url, tags, summary: `Unpack boxes of a ${noun}`, permission: billButtonCode(decl, 'update'), body: idsSchema.extend({ billId: boxListQuerySchema.shape.billId }),
      handler: async (ctx, { body }) => {
        await unpackBoxes(ctx, decl, body.billId, body.ids);
      },
    }),

  ];
});

export const qualityModule: ServerModule = {
  name: 'quality',
  routes: [
    ...declaredQualityDefinitions.flatMap((definition) => recordRoutes(definition)),
    ...boxRoutes,
    route({
      method: 'GET', url: `${URL}/inspectionTemplate/applicable`, tags, summary: 'The template (with its items) an inspection of a kind takes for a material and process; null when none applies',
      picker: INSPECTION_SCREENS, query: applicableTemplateQuerySchema,
      handler: async (ctx, { query }) => (await applicableTemplates(ctx.tx, ctx.tenantId, query.inspectionKind, [query.materialId], query.processId ?? null)).get(query.materialId) ?? null,
    }),
    route({
      method: 'GET', url: `${URL}/passRate`, tags, summary: 'Audited inspections of a period grouped by supplier, material or process: inspected, accepted, concession, rejected and the pass rate',
      permission: 'quality_passRate', query: passRateQuerySchema, page: true,
      handler: (ctx, { query }) => passRate(ctx, query),
    }),
    listExportRoute<PassRateRow>({
      url: `${URL}/passRate`, tags, noun: 'pass rate', permission: 'quality_passRate_export', columns: PASS_RATE_COLUMNS,
      filename: { zh: '检验合格率', en: 'pass rate' },
      list: (ctx, query) => passRate(ctx, passRateQuerySchema.parse(query)),
    }),
    route({
      method: 'GET', url: `${URL}/openRejects`, tags, summary: 'Rejects of audited inspections not yet taken into a reject warehouse, of source lines still open',
      permission: 'quality_openRejects', query: openRejectsQuerySchema, page: true,
      handler: (ctx, { query }) => openRejects(ctx, query),
    }),
    listExportRoute<OpenRejectRow>({
      url: `${URL}/openRejects`, tags, noun: 'open rejects', permission: 'quality_openRejects_export', columns: OPEN_REJECT_COLUMNS,
      filename: { zh: '待处理不合格品', en: 'open rejects' },
      list: (ctx, query) => openRejects(ctx, openRejectsQuerySchema.parse(query)),
    }),
  ],
  register(registries) {
    registerQualityRules(registries.billRules);
    registerQualityBlockers(registries.abandonAuditBlockers);
    registerRecordTemplates(registries, declaredQualityDefinitions);
  },
};
