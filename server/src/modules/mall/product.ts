import { queuePictureIndex } from '../../core/picture-index-queue.ts';
import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { MallProduct, MallProductCreate, MallProductRow, MallProductUpdate, MallSku, MallSkuInput, MallSkuOption, MallSpec } from '@p8/contract/mall';
import type { Tx } from '../../db/connection.ts';
import { mallCategory, mallProduct, mallSku, material } from '../../db/schema/index.ts';
import { changes } from '../../core/audit.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { subtreeIds } from '../../core/tree.ts';
import { assertCategoryUsable } from './category.ts';

/*
 * Mall → products: a product (SPU) with up to three spec dimensions and one SKU per combination of their
 * values, each SKU with its price, market and cost price, stock, code and image; the product's images,
 * its rich-text detail, on / off shelf, and optionally the ERP material it is. Only a
 * product on the shelf can be ordered; a product on the shelf cannot be deleted.
 */

type SkuRow = typeof mallSku.$inferSelect;

/** A SKU's identity within its product: its spec values joined by a character no value contains. */
export const specKeyOf = (values: readonly string[]) => values.join('\u0001');

const skuAggregate = <T>(expression: string) =>
  sql<T>`(select ${sql.raw(expression)} from ${mallSku} s where s.tenant_id = "mall_product"."tenant_id" and s.product_id = "mall_product"."id")`;

const rowSelection = {
  id: mallProduct.id,
  categoryId: mallProduct.categoryId,
  categoryName: mallCategory.name,
  name: mallProduct.name,
  subtitle: mallProduct.subtitle,
  unitName: mallProduct.unitName,
  images: mallProduct.images,
  onShelf: mallProduct.onShelf,
  sort: mallProduct.sort,
  materialId: mallProduct.materialId,
  materialName: material.name,
  createdAt: mallProduct.createdAt,
  minPrice: skuAggregate<string>('coalesce(min(s.price), 0)::text'),
  maxPrice: skuAggregate<string>('coalesce(max(s.price), 0)::text'),
  stock: skuAggregate<number>('coalesce(sum(s.stock), 0)::int'),
  sales: skuAggregate<number>('coalesce(sum(s.sales), 0)::int'),
  skuCount: skuAggregate<number>('count(*)::int'),
};
type Selected = { [K in keyof typeof rowSelection]: unknown } & {
  id: number;
  categoryId: number;
  categoryName: string | null;
  name: string;
  subtitle: string;
  unitName: string;
  images: string[];
  onShelf: boolean;
  sort: number;
  materialId: number | null;
  materialName: string | null;
  createdAt: Date;
};

const toRow = (r: Selected): MallProductRow => ({
  id: r.id,
  categoryId: r.categoryId,
  categoryName: r.categoryName,
  name: r.name,
  subtitle: r.subtitle,
  unitName: r.unitName,
  image: r.images[0] ?? '',
  minPrice: Number(r.minPrice),
  maxPrice: Number(r.maxPrice),
  stock: Number(r.stock),
  sales: Number(r.sales),
  skuCount: Number(r.skuCount),
  onShelf: r.onShelf,
  sort: r.sort,
  materialId: r.materialId,
  materialName: r.materialName,
  createdAt: r.createdAt.toISOString(),
});

const toSku = (s: SkuRow): MallSku => ({
  id: s.id,
  specValues: s.specValues,
  price: Number(s.price),
  marketPrice: Number(s.marketPrice),
  costPrice: Number(s.costPrice),
  stock: s.stock,
  sales: s.sales,
  code: s.code,
  image: s.image,
});

const listSpec: ListSpec = {
  fields: {
    name: { column: mallProduct.name, filter: 'like', sortable: true },
    onShelf: { column: mallProduct.onShelf, filter: 'bool' },
    materialId: { column: mallProduct.materialId, filter: 'number' },
    sort: { column: mallProduct.sort, sortable: true },
    createdAt: { column: mallProduct.createdAt, sortable: true },
  },
  dateColumn: mallProduct.createdAt,
  defaultOrder: [asc(mallProduct.sort), desc(mallProduct.id)],
};

function selectRows(tx: Tx) {
  return tx
    .select(rowSelection)
    .from(mallProduct)
    .leftJoin(mallCategory, and(eq(mallCategory.tenantId, mallProduct.tenantId), eq(mallCategory.id, mallProduct.categoryId)))
    .leftJoin(material, and(eq(material.tenantId, mallProduct.tenantId), eq(material.id, mallProduct.materialId)));
}

/** Products of one category include those of its sub-categories. */
async function categoryFilter(ctx: ServiceContext, query: Record<string, unknown>) {
  const raw = query.categoryId;
  if (raw === undefined || raw === '') return undefined;
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new BizError('BadRequest', { additional: 'categoryId' });
  const ids = await subtreeIds(ctx.tx, 'mall_category', ctx.tenantId, [id]);
  return ids.length ? inArray(mallProduct.categoryId, ids) : sql`false`;
}

export async function listProducts(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(mallProduct.tenantId, ctx.tenantId), await categoryFilter(ctx, query)]);
  const page = await runPage(parsed, selectRows(ctx.tx).$dynamic(), ctx.tx.select(countAll()).from(mallProduct).$dynamic());
  return { data: page.data.map((r) => toRow(r as Selected)), pagination: page.pagination };
}

export async function getProduct(ctx: ServiceContext, id: number): Promise<MallProduct> {
  const [row] = await selectRows(ctx.tx).where(and(eq(mallProduct.tenantId, ctx.tenantId), eq(mallProduct.id, id)));
  if (!row) throw new BizError('MallProductNotExist', { additional: id });
  const [full] = await ctx.tx
    .select({ images: mallProduct.images, detail: mallProduct.detail, specs: mallProduct.specs })
    .from(mallProduct)
    .where(and(eq(mallProduct.tenantId, ctx.tenantId), eq(mallProduct.id, id)));
  const skus = await ctx.tx
    .select()
    .from(mallSku)
    .where(and(eq(mallSku.tenantId, ctx.tenantId), eq(mallSku.productId, id)))
    .orderBy(asc(mallSku.sort), asc(mallSku.id));
  return { ...toRow(row as Selected), images: full.images, detail: full.detail, specs: full.specs, skus: skus.map(toSku) };
}

/**
 * The SKUs must be exactly the combinations of the specs' values, each once (a product without specs has
 * one SKU without values); spec names and the values of one spec are distinct.
 */
export function assertSkusMatchSpecs(specs: MallSpec[], skus: MallSkuInput[]) {
  if (new Set(specs.map((s) => s.name)).size !== specs.length) throw new BizError('MallSpecRepeat');
  for (const spec of specs) if (new Set(spec.values).size !== spec.values.length) throw new BizError('MallSpecRepeat', { additional: spec.name });
  const expected = specs.reduce((n, s) => n * s.values.length, 1);
  const keys = new Set<string>();
  for (const sku of skus) {
    if (sku.specValues.length !== specs.length || sku.specValues.some((v, i) => !specs[i].values.includes(v))) {
      throw new BizError('MallSkuMismatch', { additional: sku.specValues.join('/') });
    }
    keys.add(specKeyOf(sku.specValues));
  }
  if (keys.size !== skus.length || skus.length !== expected) throw new BizError('MallSkuMismatch');
}

async function assertMaterial(ctx: ServiceContext, materialId: number | null) {
  if (materialId === null) return;
  const [found] = await ctx.tx.select({ id: material.id }).from(material).where(and(eq(material.tenantId, ctx.tenantId), eq(material.id, materialId)));
  if (!found) throw new BizError('MaterialNotExist', { additional: materialId });
}

async function checkInput(ctx: ServiceContext, body: MallProductCreate) {
  assertSkusMatchSpecs(body.specs, body.skus);
  await assertCategoryUsable(ctx.tx, ctx.tenantId, body.categoryId);
  await assertMaterial(ctx, body.materialId);
}

const skuValues = (ctx: ServiceContext, productId: number, sku: MallSkuInput, sort: number) => ({
  tenantId: ctx.tenantId,
  productId,
  specValues: sku.specValues,
  specKey: specKeyOf(sku.specValues),
  price: sku.price,
  marketPrice: sku.marketPrice,
  costPrice: sku.costPrice,
  stock: sku.stock,
  code: sku.code,
  image: sku.image,
  sort,
});

export async function createProduct(ctx: ServiceContext, body: MallProductCreate): Promise<MallProduct> {
  await checkInput(ctx, body);
  const { skus, ...fields } = body;
  const [created] = await ctx.tx
    .insert(mallProduct)
    .values({ ...fields, tenantId: ctx.tenantId, createdBy: ctx.account.adminId })
    .returning({ id: mallProduct.id });
  await ctx.tx.insert(mallSku).values(skus.map((sku, i) => skuValues(ctx, created.id, sku, i)));
  ctx.audit({ action: 'create', entity: 'mall-product', entityId: created.id, detail: { name: body.name, skus: skus.length } });
  // Picture search indexes its pictures (in the background, when the tenant has it).
  if (fields.images.length) await queuePictureIndex(ctx, 'product', [created.id]);
  return getProduct(ctx, created.id);
}

/**
 * Saves the product; its SKUs are matched by their spec values: a kept combination keeps its id (and its
 * sales), a new one is added, a combination no longer offered is removed. Orders keep what they bought.
 */
export async function updateProduct(ctx: ServiceContext, { id, skus, ...fields }: MallProductUpdate): Promise<MallProduct> {
  const before = await getProduct(ctx, id);
  await checkInput(ctx, { ...fields, skus });
  await ctx.tx
    .update(mallProduct)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(mallProduct.tenantId, ctx.tenantId), eq(mallProduct.id, id)));
  const stored = new Map(before.skus.map((s) => [specKeyOf(s.specValues), s.id]));
  const kept = new Set<number>();
  for (const [i, sku] of skus.entries()) {
    const skuId = stored.get(specKeyOf(sku.specValues));
    const values = skuValues(ctx, id, sku, i);
    if (skuId === undefined) await ctx.tx.insert(mallSku).values(values);
    else {
      kept.add(skuId);
      // With the stock the editor read, the change typed is applied to the stock there is now: orders
      // placed (or cancelled) while the dialog was open keep what they took (or gave back).
      const delta = sku.stockSeen === undefined ? null : sku.stock - sku.stockSeen;
      const [updated] = await ctx.tx
        .update(mallSku)
        .set({ price: values.price, marketPrice: values.marketPrice, costPrice: values.costPrice, stock: delta === null ? values.stock : sql`${mallSku.stock} + ${delta}`, code: values.code, image: values.image, sort: i })
        .where(and(eq(mallSku.tenantId, ctx.tenantId), eq(mallSku.id, skuId), delta === null ? undefined : gte(sql`${mallSku.stock} + ${delta}`, 0)))
        .returning({ id: mallSku.id });
      if (!updated) throw new BizError('MallSkuStockChanged', { additional: [fields.name, ...sku.specValues].join(' ') });
    }
  }
  const gone = before.skus.filter((s) => !kept.has(s.id)).map((s) => s.id);
  if (gone.length) await ctx.tx.delete(mallSku).where(and(eq(mallSku.tenantId, ctx.tenantId), inArray(mallSku.id, gone)));
  const after = await getProduct(ctx, id);
  const changed = changes(
    { ...before, skus: before.skus.map((s) => [s.specValues.join('/'), s.price, s.stock]) },
    { ...fields, skus: after.skus.map((s) => [s.specValues.join('/'), s.price, s.stock]) },
  );
  if (Object.keys(changed).length) ctx.audit({ action: 'update', entity: 'mall-product', entityId: id, detail: changed });
  if (fields.images.join('\n') !== before.images.join('\n')) await queuePictureIndex(ctx, 'product', [id]);
  return after;
}

async function assertAllExist(ctx: ServiceContext, ids: number[]) {
  const found = await ctx.tx
    .select({ id: mallProduct.id, onShelf: mallProduct.onShelf, name: mallProduct.name })
    .from(mallProduct)
    .where(and(eq(mallProduct.tenantId, ctx.tenantId), inArray(mallProduct.id, ids)));
  assertAllFound(ids, found, 'MallProductNotExist');
  return found;
}

export async function deleteProducts(ctx: ServiceContext, requested: number[]) {
  const ids = distinct(requested);
  const found = await assertAllExist(ctx, ids);
  const onShelf = found.find((p) => p.onShelf);
  if (onShelf) throw new BizError('MallProductOnShelfProhibitDelete', { additional: onShelf.name });
  await ctx.tx.delete(mallProduct).where(and(eq(mallProduct.tenantId, ctx.tenantId), inArray(mallProduct.id, ids)));
  ctx.audit({ action: 'delete', entity: 'mall-product', entityId: ids });
}

/** Puts products on the shelf or takes them off. */
export async function setShelves(ctx: ServiceContext, requested: number[], onShelf: boolean) {
  const ids = distinct(requested);
  await assertAllExist(ctx, ids);
  await ctx.tx.update(mallProduct).set({ onShelf, updatedAt: new Date() }).where(and(eq(mallProduct.tenantId, ctx.tenantId), inArray(mallProduct.id, ids)));
  ctx.audit({ action: onShelf ? 'on-shelf' : 'off-shelf', entity: 'mall-product', entityId: ids });
}

const skuListSpec: ListSpec = {
  fields: {
    name: { column: mallProduct.name, filter: 'like' },
    code: { column: mallSku.code, filter: 'like' },
    productId: { column: mallSku.productId, filter: 'number' },
  },
  defaultOrder: [asc(mallProduct.sort), desc(mallProduct.id), asc(mallSku.sort), asc(mallSku.id)],
};

/** SKUs of the products on the shelf, for an order placed by staff. */
export async function listSkuOptions(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(skuListSpec, query, [eq(mallSku.tenantId, ctx.tenantId), eq(mallProduct.onShelf, true)]);
  const join = and(eq(mallProduct.tenantId, mallSku.tenantId), eq(mallProduct.id, mallSku.productId));
  const page = await runPage(
    parsed,
    ctx.tx
      .select({
        skuId: mallSku.id,
        productId: mallSku.productId,
        productName: mallProduct.name,
        specValues: mallSku.specValues,
        price: mallSku.price,
        stock: mallSku.stock,
        code: mallSku.code,
        image: mallSku.image,
        images: mallProduct.images,
        unitName: mallProduct.unitName,
      })
      .from(mallSku)
      .innerJoin(mallProduct, join)
      .$dynamic(),
    ctx.tx.select(countAll()).from(mallSku).innerJoin(mallProduct, join).$dynamic(),
  );
  const data: MallSkuOption[] = page.data.map(({ images, ...s }) => ({ ...s, price: Number(s.price), image: s.image || images[0] || '' }));
  return { data, pagination: page.pagination };
}
