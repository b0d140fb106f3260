import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { declaredRecordLineTable, declaredRecordTable } from '../../db/schema/index.ts';
import { declaredRecordDefinition, type DeclaredRecordHooks, type DeclaredRecordLineTable, type DeclaredRecordTable } from '../../core/declared-records.ts';
import { BizError } from '../../core/errors.ts';
import type { AnyRecordDefinition } from '../../core/record-routes.ts';
import { screensNaming } from '../../core/screens.ts';

/*
 * The quality area's declared records (packages/contract/src/records/quality.ts) and their own rules.
 */

type Items = Array<{ valueKind?: string; lower?: number | null; upper?: number | null }>;

const HOOKS: Record<string, DeclaredRecordHooks> = {
  inspectionTemplate: {
    async beforeSave(_ctx, body, current) {
      const merged = { ...(current ?? {}), ...body } as Record<string, unknown>;
      const value = merged.sampleValue as number | null | undefined;
      if (merged.sampling === 'Fixed' && !(value && value > 0)) throw new BizError('InspectionSamplingInvalid');
      if (merged.sampling === 'Percent' && !(value && value > 0 && value <= 100)) throw new BizError('InspectionSamplingInvalid');
      const items = body.items as Items | undefined;
      const reversed = items?.findIndex((i) => i.valueKind === 'Numeric' && i.lower != null && i.upper != null && i.lower > i.upper) ?? -1;
      if (reversed >= 0) throw new BizError('InspectionItemLimitsReversed', { additional: { line: reversed + 1 } });
    },
  },
};

/** The definitions of the quality area's declared records, for `recordRoutes`. */
export const declaredQualityDefinitions: AnyRecordDefinition[] = RECORD_KINDS.filter((decl) => decl.area === 'quality').map((decl) => {
  const formsNaming = screensNaming(decl.kind);
  return declaredRecordDefinition(decl, {
    table: declaredRecordTable(decl.kind) as unknown as DeclaredRecordTable,
    lineTable: decl.lines ? (declaredRecordLineTable(decl.kind) as unknown as DeclaredRecordLineTable) : undefined,
    readers: formsNaming.length ? { picker: formsNaming } : undefined,
    hooks: HOOKS[decl.kind],
  });
});
