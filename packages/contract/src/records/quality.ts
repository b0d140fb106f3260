import { z } from 'zod';
import { codeText, nameText, storableText } from '../text.ts';
import { INSPECTION_KIND_LABELS, InspectionKind, ItemValueKind, ITEM_VALUE_KIND_LABELS, Sampling, SAMPLING_LABELS } from '../quality.ts';
import type { RecordKindDecl } from './registry.ts';

/*
 * Quality's records (质量管理 / Quality, docs/quality.md): inspection templates (检验方案) — declared like every
 * record kind, under the area `quality`. Their own rules (a template names a material or a category, a numeric
 * item's tolerance in order, a sampling with its value) are the quality module's hooks.
 */

const recordId = z.number().int().positive();
/** A reading's bound or standard: four decimal places are enough for a gauge. */
const measure = z.number().finite({ message: 'InspectionItemValueOutOfRange' }).min(-1e9, { message: 'InspectionItemValueOutOfRange' }).max(1e9, { message: 'InspectionItemValueOutOfRange' });

/**
 * An inspection template: what to check on a material (or every material of a category, or — naming neither —
 * every material no other template of the kind covers) at one kind of inspection — its items, each read as a number within a tolerance or judged pass / fail, and whether a failed
 * item fails the lot (`blocks`) — how many pieces to sample, and whether the goods wait for the inspection:
 * with `gates` on, the bill after the inspection (the purchase in-stock after an incoming inspection, the sale
 * out-stock after a shipment inspection, the completion in-stock after a finished-product inspection) takes
 * at most what audited inspections accepted.
 */
export const inspectionTemplate = {
  kind: 'inspectionTemplate',
  area: 'quality',
  entity: 'inspection template',
  label: { zh: '检验方案', en: 'Inspection templates' },
  noun: { zh: '检验方案', en: 'inspection template' },
  icon: 'FileSearchOutlined',
  fields: [
    { key: 'code', label: { zh: '方案编码', en: 'Code' }, kind: 'text', schema: codeText(50), required: true, search: true, sortable: true, width: 130 },
    { key: 'name', label: { zh: '方案名称', en: 'Template' }, kind: 'text', schema: nameText(100), required: true, search: true, sortable: true, width: 200, title: true },
    {
      key: 'inspectionKind',
      label: { zh: '检验类型', en: 'Inspection' },
      kind: 'enum',
      schema: z.enum(InspectionKind, { error: 'ParamError' }),
      required: true,
      options: InspectionKind.map((value) => ({ value, label: INSPECTION_KIND_LABELS[value] })),
      initial: 'Incoming',
      search: true,
      width: 120,
    },
    { key: 'materialId', label: { zh: '物料', en: 'Material' }, kind: 'record', ref: 'material', schema: recordId, search: true, width: 180, help: { zh: '物料的方案优先于分类的方案；都不填为通用方案，适用于其他所有物料', en: 'A material’s own template comes before its category’s; naming neither makes a general template for every other material' } },
    { key: 'categoryId', label: { zh: '物料分类', en: 'Category' }, kind: 'record', ref: 'category', schema: recordId, width: 150 },
    { key: 'processId', label: { zh: '工序', en: 'Process' }, kind: 'record', ref: 'process', schema: recordId, width: 130, help: { zh: '工序检验、首件、巡检可按工序指定方案', en: 'Process, first-article and patrol inspections may take a template per process' } },
    {
      key: 'sampling',
      label: { zh: '抽样方式', en: 'Sampling' },
      kind: 'enum',
      schema: z.enum(Sampling, { error: 'ParamError' }),
      required: true,
      options: Sampling.map((value) => ({ value, label: SAMPLING_LABELS[value] })),
      initial: 'All',
      width: 110,
    },
    {
      key: 'sampleValue',
      label: { zh: '抽样数/比例%', en: 'Sample size / %' },
      kind: 'number',
      precision: 2,
      schema: z.number().finite({ message: 'InspectionSamplingInvalid' }).min(0, { message: 'InspectionSamplingInvalid' }).max(1e9, { message: 'InspectionSamplingInvalid' }),
      width: 120,
      help: { zh: '固定数量抽样填件数，按比例抽样填百分比', en: 'Pieces for a fixed sample, a percentage for a proportional one' },
    },
    // The walkers' sample (`examples`) holds nothing back: a general template sampled for a tenant would otherwise
    // make every good of that kind wait; off is also not the form's default, so reading it back proves it stored.
    { key: 'gates', label: { zh: '检验后方可入库/出库', en: 'Goods wait for it' }, kind: 'boolean', schema: z.boolean(), initial: true, examples: [false], width: 150, help: { zh: '开启后，下游单据最多取已审核检验单的合格数与让步接收数', en: 'On: the next bill takes at most what audited inspections accepted (concessions included)' } },
  ],
  lines: {
    key: 'items',
    label: { zh: '检验项目', en: 'Items' },
    min: 1,
    tooFew: 'InspectionTemplateItemsEmpty',
    max: 100,
    summaryJoin: ', ',
    fields: [
      { key: 'name', label: { zh: '检验项目', en: 'Item' }, kind: 'text', schema: nameText(100), required: true, width: 160, title: true },
      { key: 'method', label: { zh: '检验方法', en: 'Method' }, kind: 'text', schema: storableText().trim().max(200), width: 160 },
      {
        key: 'valueKind',
        label: { zh: '判定方式', en: 'Judged by' },
        kind: 'enum',
        schema: z.enum(ItemValueKind, { error: 'ParamError' }),
        required: true,
        options: ItemValueKind.map((value) => ({ value, label: ITEM_VALUE_KIND_LABELS[value] })),
        initial: 'PassFail',
        width: 120,
      },
      { key: 'standard', label: { zh: '标准值', en: 'Standard' }, kind: 'number', precision: 4, schema: measure, width: 100 },
      { key: 'lower', label: { zh: '下限', en: 'Min' }, kind: 'number', precision: 4, schema: measure, width: 100 },
      { key: 'upper', label: { zh: '上限', en: 'Max' }, kind: 'number', precision: 4, schema: measure, width: 100 },
      { key: 'blocks', label: { zh: '不合格即判批退', en: 'Fails the lot' }, kind: 'boolean', schema: z.boolean(), initial: true, width: 120 },
    ],
  },
  unique: [
    { fields: ['code'], error: 'CodeRepeat' },
    { fields: ['name'], error: 'NameRepeat' },
  ],
  notExist: 'InspectionTemplateNotExist',
  inUse: 'InspectionTemplateInUseProhibitDelete',
  category: 'basic',
  template: 'inspectionTemplate',
  filename: { zh: '检验方案', en: 'inspection templates' },
} as const satisfies RecordKindDecl;
