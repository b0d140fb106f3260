import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PictureIndexStatus, PictureSearchResult } from '@p8/contract/picture-search';
import type { UploadResult } from '@p8/contract/upload';
import { JobRunner } from '../src/core/background-jobs.ts';
import { parseTenantConfig } from '../src/core/tenant-config.ts';
import { backgroundJob, pictureEmbedding } from '../src/db/schema/index.ts';
import { PICTURE_INDEX_JOB } from '../src/core/picture-index-queue.ts';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { ok, refused } from './bill-fixtures.ts';
import { partPicture } from './fixtures/part-pictures.ts';

/*
 * Picture search (modules/picture/, docs/picture-search.md) end to end on the real model: materials' pictures
 * are indexed by the background job as they are saved; a photo of a part finds it among the first five, a
 * re-saved copy of its picture first and as a match; a changed picture replaces the old one in the index, a
 * deleted material is never answered; fewer than the required pictures, a closed module, another tenant's
 * index and a caller without the screens are refused. The model is loaded once for the file (≈1–2 s); each
 * picture costs ≈0.1 s, a search's photo ≈0.5 s.
 */

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let api: Caller;
let apiB: Caller;
let worker: JobRunner;
let unit = 0;
const materials: number[] = [];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function jobsDone(t: TestTenant) {
  for (const deadline = Date.now() + 60_000; ; await pause(50)) {
    const jobs = await ctx.database.withTenant(t.tenantId, (tx) =>
      tx.select({ status: backgroundJob.status, errorKey: backgroundJob.errorKey }).from(backgroundJob).where(and(eq(backgroundJob.tenantId, t.tenantId), eq(backgroundJob.kind, PICTURE_INDEX_JOB))),
    );
    if (jobs.every((j) => j.status === 'succeeded' || j.status === 'failed')) {
      expect(jobs.filter((j) => j.status === 'failed')).toEqual([]);
      return jobs.length;
    }
    if (Date.now() > deadline) throw new Error(`picture jobs still ${JSON.stringify(jobs)}`);
  }
}
const upload = async (who: Caller, picture: Buffer, name = 'part.jpg') => (await ok(who.upload<UploadResult>('/api/admin/upload/img', picture, name))).url;
const search = (who: Caller, picture: Buffer, target = 'material') => who.upload<PictureSearchResult>(`/api/admin/picture/${target}/search`, picture, 'photo.jpg');
const openSearch = (who: Caller, body: Record<string, unknown>) => ok(who.put('/api/admin/admin/tenant', body));

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'PicA');
  b = await seedTenant(ctx.database, 'PicB');
  api = await adminCaller(ctx, a);
  apiB = await adminCaller(ctx, b);
  unit = await api.create('unit', { name: 'pc' });
  worker = new JobRunner({ database: ctx.database, config: ctx.config, registries: ctx.app.registries, access: ctx.app.access, log: ctx.app.log }, ctx.app.registries.jobKinds, { pollMs: 30, id: 'picture-worker' });
  worker.start();
}, 60_000);
afterAll(async () => {
  await worker.stop();
  await ctx.close();
});

describe('picture search', () => {
  it('is refused while the tenant has not opened it, for materials and for products', async () => {
    const photo = await partPicture(0, 1);
    await refused(search(api, photo), 'PictureSearchNotOpen');
    expect(await ok(api.get<PictureIndexStatus>('/api/admin/picture/material/status'))).toMatchObject({ open: false, indexed: 0 });
    await openSearch(api, { hasPictureSearchModule: true, pictureSearchType: 'NotSelected' });
    await refused(search(api, photo), 'PictureSearchNotOpen');
    await openSearch(api, { hasPictureSearchModule: true, pictureSearchType: 'Similarity' });
    // An earlier version's engines (Local, Cloud) read as Similarity.
    expect(parseTenantConfig({ hasPictureSearchModule: true, pictureSearchType: 'Cloud' }).pictureSearchType).toBe('Similarity');
    // Similarity searches the materials only; the mall's products need Product.
    await refused(search(api, photo, 'product'), 'PictureSearchNotOpen');
    await refused(api.post('/api/admin/picture/product/reindex'), 'PictureSearchNotOpen');
    // Saved before the module was open, a material's picture is not queued; the re-index finds it.
    expect(await jobsDone(a)).toBe(0);
  });

  it('indexes pictures as materials are saved, and refuses a search with fewer than the required count', async () => {
    for (let part = 0; part < 9; part++) {
      materials.push(await api.create('material', { code: `P${part}`, name: `Part ${part}`, units: [{ unitId: unit, isMain: true }], images: [await upload(api, await partPicture(part, 0))] }));
    }
    expect(await jobsDone(a)).toBe(9);
    const res = await search(api, await partPicture(0, 1));
    expect(res.body).toMatchObject({ message: 'PictureSearchCountInsufficient', additional: '9/10' });
    for (let part = 9; part < 12; part++) {
      materials.push(await api.create('material', { code: `P${part}`, name: `Part ${part}`, units: [{ unitId: unit, isMain: true }], images: [await upload(api, await partPicture(part, 0))] }));
    }
    await jobsDone(a);
    expect(await ok(api.get<PictureIndexStatus>('/api/admin/picture/material/status'))).toMatchObject({ open: true, indexed: 12, pictures: 12, required: 10, job: null });
  }, 120_000);

  it('finds a photographed part among the first five and a re-saved picture first, calibrated against the threshold', async () => {
    for (const part of [1, 3, 7]) {
      const found = await ok(search(api, await partPicture(part, 1)));
      expect(found.threshold).toBe(0.7);
      expect(found.indexed).toBe(12);
      const rank = found.matches.findIndex((m) => m.id === materials[part]);
      expect(rank, JSON.stringify(found.matches.slice(0, 5))).toBeGreaterThanOrEqual(0);
      expect(rank).toBeLessThan(5);
      for (const m of found.matches) expect(m.match).toBe(m.similarity >= 0.7);
      // Best first, similarities between 0 and 1 (calibrated, not raw cosines).
      expect(found.matches.map((m) => m.similarity)).toEqual([...found.matches.map((m) => m.similarity)].sort((x, y) => y - x));
      expect(found.matches.every((m) => m.similarity >= 0 && m.similarity <= 1)).toBe(true);
    }
    const same = await ok(search(api, await partPicture(5, 0)));
    expect(same.matches[0]).toMatchObject({ id: materials[5], code: 'P5', name: 'Part 5', match: true });
    expect(same.matches[0].similarity).toBeGreaterThanOrEqual(0.99);
    // Most other parts are clearly not it.
    expect(same.matches.filter((m) => m.match).length).toBeLessThanOrEqual(3);
  }, 60_000);

  it('replaces a changed picture in the index and never answers a deleted material', async () => {
    // Material P11 now shows part 15: its old picture leaves the index, the new one comes in.
    const url = await upload(api, await partPicture(15, 0));
    await ok(api.put('/api/admin/basic/material', { id: materials[11], images: [url] }));
    await jobsDone(a);
    const rows = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ url: pictureEmbedding.imageUrl }).from(pictureEmbedding).where(eq(pictureEmbedding.recordId, materials[11])));
    expect(rows).toEqual([{ url }]);
    const found = await ok(search(api, await partPicture(15, 0)));
    expect(found.matches[0].id).toBe(materials[11]);

    await ok(api.del('/api/admin/basic/material', { ids: [materials[5]] }));
    const after = await ok(search(api, await partPicture(5, 0)));
    expect(after.matches.map((m) => m.id)).not.toContain(materials[5]);
    // The re-index removes its picture (a background job with its progress).
    const { id } = await ok(api.post<{ id: number }>('/api/admin/picture/material/reindex'));
    expect(id).toBeGreaterThan(0);
    await jobsDone(a);
    expect(await ok(api.get<PictureIndexStatus>('/api/admin/picture/material/status'))).toMatchObject({ indexed: 11, pictures: 11 });
    // 11 is still enough; one more gone and the search is refused again.
    await ok(api.del('/api/admin/basic/material', { ids: [materials[6]] }));
    await ok(api.post('/api/admin/picture/material/reindex'));
    await jobsDone(a);
    await ok(api.del('/api/admin/basic/material', { ids: [materials[7]] }));
    await ok(api.post('/api/admin/picture/material/reindex'));
    await jobsDone(a);
    expect((await search(api, await partPicture(0, 1))).body).toMatchObject({ message: 'PictureSearchCountInsufficient', additional: '9/10' });
  }, 120_000);

  it("keeps each tenant's index to itself, searches the mall's products with Product, and asks for the screens that use it", async () => {
    await openSearch(apiB, { hasPictureSearchModule: true, pictureSearchType: 'Product' });
    expect((await search(apiB, await partPicture(0, 0), 'product')).body).toMatchObject({ message: 'PictureSearchCountInsufficient', additional: '0/10' });
    const seen = await ctx.database.withTenant(b.tenantId, (tx) => tx.select({ id: pictureEmbedding.id }).from(pictureEmbedding));
    expect(seen).toEqual([]);
    expect(await ok(apiB.get<PictureIndexStatus>('/api/admin/picture/product/status'))).toMatchObject({ open: true, indexed: 0, pictures: 0 });

    // With Product, the mall's products are indexed as they are saved and searched on their own.
    const category = await ok(apiB.post<{ id: number }>('/api/admin/mall/category', { name: 'Parts', parentId: null }));
    const products: number[] = [];
    for (let part = 0; part < 10; part++) {
      const images = [await upload(apiB, await partPicture(part + 4, 0))];
      const made = await ok(apiB.post<{ id: number }>('/api/admin/mall/product', { categoryId: category.id, name: `Kit ${part}`, images, skus: [{ specValues: [], price: 1, stock: 1 }] }));
      products.push(made.id);
    }
    await jobsDone(b);
    expect(await ok(apiB.get<PictureIndexStatus>('/api/admin/picture/product/status'))).toMatchObject({ open: true, indexed: 10, pictures: 10 });
    const kit = await ok(search(apiB, await partPicture(7, 0), 'product'));
    expect(kit.matches[0]).toMatchObject({ id: products[3], name: 'Kit 3', code: '', match: true });
    // The materials of B have no pictures: their search is still short of pictures.
    expect((await search(apiB, await partPicture(7, 0))).body).toMatchObject({ message: 'PictureSearchCountInsufficient', additional: '0/10' });

    const nobody = await staffCaller(ctx, a, []);
    expect((await nobody.get('/api/admin/picture/material/status')).body.status).toBe(40300);
    expect((await nobody.post('/api/admin/picture/material/reindex')).body.status).toBe(40300);
    // A purchase clerk picks materials in the bill form: they may search, not re-index.
    const clerk = await staffCaller(ctx, a, ['purchase_order']);
    expect((await clerk.get('/api/admin/picture/material/status')).body.status).toBe(0);
    expect((await clerk.post('/api/admin/picture/material/reindex')).body.status).toBe(40300);
  }, 120_000);
});
