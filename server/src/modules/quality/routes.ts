import { applicableTemplateQuerySchema } from '@p8/contract/quality';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billMenuName } from '@p8/contract/bills/registry';
import { recordRoutes, registerRecordTemplates } from '../../core/record-routes.ts';
import { route, type ServerModule } from '../../core/route.ts';
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

export const qualityModule: ServerModule = {
  name: 'quality',
  routes: [
    ...declaredQualityDefinitions.flatMap((definition) => recordRoutes(definition)),
    route({
      method: 'GET', url: `${URL}/inspectionTemplate/applicable`, tags, summary: 'The template (with its items) an inspection of a kind takes for a material and process; null when none applies',
      picker: INSPECTION_SCREENS, query: applicableTemplateQuerySchema,
      handler: async (ctx, { query }) => (await applicableTemplates(ctx.tx, ctx.tenantId, query.inspectionKind, [query.materialId], query.processId ?? null)).get(query.materialId) ?? null,
    }),
  ],
  register(registries) {
    registerQualityRules(registries.billRules);
    registerQualityBlockers(registries.abandonAuditBlockers);
    registerRecordTemplates(registries, declaredQualityDefinitions);
  },
};
