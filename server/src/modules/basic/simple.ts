import { and, asc, desc, eq, getTableName, ilike, inArray, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  attributeSchemas,
  brandSchemas,
  FEE_KIND_LABELS,
  feeTypeSchemas,
  payTypeSchemas,
  unitSchemas,
  type FeeKind,
  type PickerQuery,
} from '@p8/contract/basic';
import type { ErrorKey } from '@p8/contract/errors';
import type { Tx } from '../../db/connection.ts';
import { attribute, brand, feeType, material, payType, unit } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import type { Lang } from '../../core/excel.ts';
import { assertAllFound } from '../../core/ids.ts';
import { containsPattern, countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { boolLabel, cellEnum, cellNumber, cellText, col, EXPORT_MAX_ROWS } from './kit.ts';
import { inSavepoint, type RecordDefinition } from './record-routes.ts';

/*
 * The simple records: units, brands, pay types, fee types and attributes — a name unique in the tenant,
 * sort, remark, enabled, and for fee types their kind (income / expense), for attributes their values.
 */

// Every simple table has these columns; fee_type and attribute add their own.
type SimpleTable = typeof brand;
const asSimple = (t: typeof unit | typeof brand | typeof payType | typeof feeType | typeof attribute) => t as unknown as SimpleTable;

interface SimpleInput {
  name?: string;
  sort?: number;
  remark?: string;
  kind?: FeeKind;
  values?: string[];
}

interface SimpleConfig {
  record: 'unit' | 'brand' | 'paytype' | 'fee' | 'attribute';
  entity: string;
  table: SimpleTable;
  schemas: { create: z.ZodType<SimpleInput>; update: z.ZodType<SimpleInput & { id: number }> };
  notExist: ErrorKey;
  filename: { zh: string; en: string };
  template: string;
}

function extraColumns(cfg: SimpleConfig): Record<string, AnyPgColumn> {
  if (cfg.record === 'fee') return { kind: (cfg.table as unknown as typeof feeType).kind };
  if (cfg.record === 'attribute') return { values: (cfg.table as unknown as typeof attribute).values };
  return {};
}

function listSpec(cfg: SimpleConfig): ListSpec {
  const t = cfg.table;
  return {
    fields: {
      id: { column: t.id, notIn: true },
      name: { column: t.name, filter: 'like', sortable: true },
      remark: { column: t.remark, filter: 'like' },
      enabled: { column: t.enabled, filter: 'bool', sortable: true },
      sort: { column: t.sort, sortable: true },
      createdAt: { column: t.createdAt, sortable: true },
      ...(cfg.record === 'fee' ? { kind: { column: (cfg.table as unknown as typeof feeType).kind, filter: 'eq' as const, sortable: true } } : {}),
    },
    dateColumn: t.createdAt,
    defaultOrder: [asc(t.sort), desc(t.id)],
  };
}

function selection(cfg: SimpleConfig) {
  const t = cfg.table;
  return {
    id: t.id,
    name: t.name,
    sort: t.sort,
    remark: t.remark,
    enabled: t.enabled,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    ...extraColumns(cfg),
  };
}

async function assertNameFree(tx: Tx, cfg: SimpleConfig, tenantId: number, name: string, exceptId?: number) {
  const t = cfg.table;
  const [taken] = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), eq(t.name, name), exceptId === undefined ? undefined : ne(t.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

/**
 * An attribute's values are the choices a material may hold (an empty list: any text). A value some
 * material holds cannot be dropped from the list.
 */
async function refuseDroppingHeldValues(tx: Tx, tenantId: number, attributeId: number, values: string[]) {
  if (!values.length) return;
  const held = sql<string>`${material.customAttributes} ->> ${String(attributeId)}`;
  const [used] = await tx
    .select({ value: held })
    .from(material)
    .where(and(eq(material.tenantId, tenantId), ne(held, ''), notInArray(held, values)))
    .limit(1);
  if (used) throw new BizError('AttributeValueInUseProhibitDelete', { additional: used.value });
}

function simpleDefinition(cfg: SimpleConfig): RecordDefinition<SimpleInput, SimpleInput & { id: number }> {
  const t = cfg.table;
  const spec = listSpec(cfg);

  async function detail({ tx, tenantId }: ServiceContext, id: number) {
    const [row] = await tx.select(selection(cfg)).from(t).where(and(eq(t.tenantId, tenantId), eq(t.id, id)));
    if (!row) throw new BizError(cfg.notExist, { additional: id });
    return row;
  }

  async function create({ tx, tenantId }: ServiceContext, body: SimpleInput) {
    await assertNameFree(tx, cfg, tenantId, body.name!);
    const fields = { tenantId, name: body.name!, sort: body.sort ?? 0, remark: body.remark ?? '' };
    // Fee types and attributes have one column more than the other simple tables: each its own insert.
    const [row] =
      cfg.record === 'fee'
        ? await tx.insert(feeType).values({ ...fields, kind: body.kind! }).returning({ id: feeType.id })
        : cfg.record === 'attribute'
          ? await tx.insert(attribute).values({ ...fields, values: body.values ?? [] }).returning({ id: attribute.id })
          : await tx.insert(t).values(fields).returning({ id: t.id });
    return row;
  }

  const rowsOf = (tx: Tx) => tx.select(selection(cfg)).from(t).$dynamic();

  return {
    record: cfg.record,
    entity: cfg.entity,
    createSchema: cfg.schemas.create,
    updateSchema: cfg.schemas.update,
    async list({ tx, tenantId }, query) {
      const parsed = parseList(spec, query, [eq(t.tenantId, tenantId)]);
      return runPage(parsed, rowsOf(tx), tx.select(countAll()).from(t).$dynamic());
    },
    detail,
    create,
    async update(ctx, body) {
      const { tx, tenantId } = ctx;
      await detail(ctx, body.id);
      if (body.name !== undefined) await assertNameFree(tx, cfg, tenantId, body.name, body.id);
      if (cfg.record === 'attribute' && body.values !== undefined) await refuseDroppingHeldValues(tx, tenantId, body.id, body.values);
      // Fields left undefined are not set (Drizzle leaves them out of the statement).
      const fields = { name: body.name, sort: body.sort, remark: body.remark, updatedAt: new Date() };
      const where = and(eq(t.tenantId, tenantId), eq(t.id, body.id));
      if (cfg.record === 'fee') await tx.update(feeType).set({ ...fields, kind: body.kind }).where(where);
      else if (cfg.record === 'attribute') await tx.update(attribute).set({ ...fields, values: body.values }).where(where);
      else await tx.update(t).set(fields).where(where);
    },
    async remove({ tx, tenantId, registries }, ids) {
      const found = await tx.select({ id: t.id }).from(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
      assertAllFound(ids, found, cfg.notExist);
      await registries.recordUsage.refuseIfInUse(tx, tenantId, cfg.record, ids);
      await tx.delete(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
    },
    async enable({ tx, tenantId }, ids, enabled) {
      const found = await tx.select({ id: t.id }).from(t).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
      assertAllFound(ids, found, cfg.notExist);
      await tx.update(t).set({ enabled, updatedAt: new Date() }).where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)));
    },
    async picker({ tx, tenantId }, query: PickerQuery) {
      const conditions: Array<SQL | undefined> = [eq(t.tenantId, tenantId), eq(t.enabled, true)];
      if (query.keyword) conditions.push(ilike(t.name, containsPattern(query.keyword)));
      if (cfg.record === 'fee' && query.kind) conditions.push(eq((cfg.table as unknown as typeof feeType).kind, query.kind));
      const where = and(...conditions);
      return runPage({ current: query.current, pageSize: query.pageSize, where, orderBy: spec.defaultOrder }, rowsOf(tx), tx.select(countAll()).from(t).$dynamic());
    },
    excel: {
      template: cfg.template,
      stagedTables: [getTableName(cfg.table)],
      importColumns: [
        col('name', '名称', 'Name', true),
        ...(cfg.record === 'fee' ? [col('kind', '收支类型(收入/支出)', 'Kind (Income/Expense)', true)] : []),
        ...(cfg.record === 'attribute' ? [col('values', '属性值(逗号分隔)', 'Values (comma separated)', false, 40)] : []),
        col('sort', '排序', 'Sort'),
        col('remark', '备注', 'Remark', false, 30),
      ],
      async importer(ctx) {
        const schema = cfg.schemas.create;
        return async (savepoint, row) => {
          const d = row.data;
          const input = schema.parse({
            name: cellText(d.name) ?? '',
            sort: cellNumber(d.sort),
            remark: cellText(d.remark),
            ...(cfg.record === 'fee' ? { kind: cellEnum(d.kind, FEE_KIND_LABELS) } : {}),
            ...(cfg.record === 'attribute'
              ? { values: [...new Set((cellText(d.values) ?? '').split(/[,，、;；]/).map((v) => v.trim()).filter(Boolean))] }
              : {}),
          });
          await create(inSavepoint(ctx, savepoint), input);
        };
      },
      exportColumns: [
        col('name', '名称', 'Name'),
        ...(cfg.record === 'fee' ? [col('kind', '收支类型', 'Kind')] : []),
        ...(cfg.record === 'attribute' ? [col('values', '属性值', 'Values', false, 40)] : []),
        col('sort', '排序', 'Sort'),
        col('enabled', '启用', 'Enabled'),
        col('remark', '备注', 'Remark', false, 30),
        col('createdAt', '创建时间', 'Created at', false, 20),
      ],
      async exportRows({ tx, tenantId }, query, lang: Lang) {
        const parsed = parseList(spec, query, [eq(t.tenantId, tenantId)]);
        const rows = (await rowsOf(tx).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS)) as Array<Record<string, unknown>>;
        return rows.map((r) => ({
          ...r,
          enabled: boolLabel(Boolean(r.enabled), lang),
          ...(cfg.record === 'fee' ? { kind: FEE_KIND_LABELS[r.kind as FeeKind]?.[lang] ?? r.kind } : {}),
          ...(cfg.record === 'attribute' ? { values: ((r.values as string[]) ?? []).join(',') } : {}),
        }));
      },
      filename: cfg.filename,
    },
  };
}

export const unitDefinition = simpleDefinition({
  record: 'unit',
  entity: 'unit',
  table: asSimple(unit),
  schemas: unitSchemas,
  notExist: 'UnitNotExist',
  template: 'unit',
  filename: { zh: '单位', en: 'units' },
});

export const brandDefinition = simpleDefinition({
  record: 'brand',
  entity: 'brand',
  table: asSimple(brand),
  schemas: brandSchemas,
  notExist: 'BrandNotExist',
  template: 'brand',
  filename: { zh: '品牌', en: 'brands' },
});

export const payTypeDefinition = simpleDefinition({
  record: 'paytype',
  entity: 'pay type',
  table: asSimple(payType),
  schemas: payTypeSchemas,
  notExist: 'PayTypeNotExist',
  template: 'paytype',
  filename: { zh: '结算方式', en: 'pay-types' },
});

export const feeTypeDefinition = simpleDefinition({
  record: 'fee',
  entity: 'fee type',
  table: asSimple(feeType),
  schemas: feeTypeSchemas,
  notExist: 'FeeTypeNotExist',
  template: 'fee',
  filename: { zh: '费用类型', en: 'fee-types' },
});

export const attributeDefinition = simpleDefinition({
  record: 'attribute',
  entity: 'attribute',
  table: asSimple(attribute),
  schemas: attributeSchemas,
  notExist: 'AttributeNotExist',
  template: 'attribute',
  filename: { zh: '属性', en: 'attributes' },
});

