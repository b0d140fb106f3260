import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, type Lang } from '../bill-steps.ts';
import { partPicture } from '../../server/test/fixtures/part-pictures.ts';
import type { PictureIndexStatus, PictureSearchResult } from '@p8/contract/picture-search';

/**
 * Picture search in Chromium, in zh and en: the demo tenant opens picture search, twelve parts are saved as
 * materials with their catalogue pictures (indexed by the server's background job); on the material list a
 * photo of one of them — turned, on a workbench, in other light — is uploaded in the search dialog, the
 * ranked results show it among the first five, and opening it shows the material's own dialog; in a purchase
 * order's material picker another photo of it chooses it, and the new line takes it.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('picture-search');
});
afterAll(() => suite?.close());

const PARTS = 12;
const materialIds: number[] = [];

describe('picture search (browser)', () => {
  it.each<[Lang, string, string]>([
    ['zh', 'zh-CN', '匹配'],
    ['en', 'en-US', 'Match'],
  ])('finds a photographed part in the material list and opens it (%s)', async (lang, locale, matchLabel) => {
    const page = await demoPage(suite, lang, locale);
    const call = await pageCaller(suite, page);
    if (!materialIds.length) {
      await call('PUT', '/admin/admin/tenant', { hasPictureSearchModule: true, pictureSearchType: 'Similarity' });
      const token = await storedToken(page);
      const unit = (await call<Array<{ id: number }>>('GET', '/admin/basic/unit?current=1&pageSize=10'))[0].id;
      for (let part = 0; part < PARTS; part++) {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(await partPicture(part, 0))], { type: 'image/jpeg' }), `part-${part}.jpg`);
        const res = await fetch(`${suite.server.baseURL}/api/admin/upload/img`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
        const { data } = (await res.json()) as { data: { url: string } };
        const created = await call<{ id: number }>('POST', '/admin/basic/material', { code: `PIC-${part}`, name: `E2E part ${part}`, units: [{ unitId: unit, isMain: true }], images: [data.url] });
        materialIds.push(created.id);
      }
      await waitUntil(() => call<PictureIndexStatus>('GET', '/admin/picture/material/status'), (s) => s.indexed >= PARTS && !s.job, 'the pictures indexed', 120_000);
    }
    const part = 3;
    await page.goto('/basic/material');
    await page.getByTestId('picture-search-button').click();
    const dialog = page.getByTestId('picture-search');
    await dialog.getByTestId('picture-search-index').filter({ hasText: String(PARTS) }).waitFor();
    const answer = page.waitForResponse((r) => r.url().includes('/admin/picture/material/search'), { timeout: 60_000 });
    await dialog.locator('input[type=file]').first().setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await partPicture(part, 1) });
    const found = ((await (await answer).json()) as { data: PictureSearchResult }).data;
    const hit = dialog.getByTestId(`picture-search-result-${materialIds[part]}`);
    await hit.waitFor();
    // The list shows what the server ranked, in its order, the part among the first five; matches marked.
    const ranked = await dialog.locator('[data-testid^="picture-search-result-"]').evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-testid')!.split('-').pop())));
    expect(ranked).toEqual(found.matches.map((m) => m.id));
    expect(ranked.indexOf(materialIds[part])).toBeLessThan(5);
    expect(await dialog.locator('.ant-tag', { hasText: matchLabel }).count()).toBe(found.matches.filter((m) => m.match).length);
    await screenshot(page, `picture-search-${lang}-results`);

    await dialog.getByTestId(`picture-search-open-${materialIds[part]}`).click();
    const material = page.getByTestId('material-dialog');
    await material.getByTestId('material-name').and(page.locator(`[value="E2E part ${part}"]`)).waitFor();
    await screenshot(page, `picture-search-${lang}-opened`);

    // The bill form's material picker: the part found by its photo fills the new line at once.
    await page.goto('/purchase/order');
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-line-pick').click();
    const picker = page.getByTestId('material-picker');
    await picker.getByTestId('picture-search-button').click();
    const inPicker = page.getByTestId('picture-search');
    await inPicker.locator('input[type=file]').first().setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await partPicture(part, 2) });
    await inPicker.getByTestId(`picture-search-open-${materialIds[part]}`).waitFor({ timeout: 60_000 });
    await screenshot(page, `picture-search-${lang}-picker`);
    await inPicker.getByTestId(`picture-search-open-${materialIds[part]}`).click();
    await picker.waitFor({ state: 'hidden' });
    const line = form.getByTestId('bill-line-0-materialId');
    await waitUntil(
      () => line.evaluate((el) => `${el.textContent ?? ''} ${Array.from(el.querySelectorAll('input')).map((i) => i.value).join(' ')}`),
      (text) => text.includes(`PIC-${part}`) || text.includes(`E2E part ${part}`),
      'the line taking the chosen material',
    );

    // With Product the mall's product list offers the search too; the tenant screen says what each setting does.
    await call('PUT', '/admin/admin/tenant', { pictureSearchType: 'Product' });
    await page.goto('/mall/product');
    await page.getByTestId('picture-search-button').click();
    await page.getByTestId('picture-search').getByTestId('picture-search-index').waitFor();
    await screenshot(page, `picture-search-${lang}-products`);
    await page.goto('/system/tenant');
    const section = page.getByTestId('tenant-section-picture');
    await section.scrollIntoViewIfNeeded();
    await section.locator('.ant-radio-button-wrapper-checked').waitFor();
    await section.screenshot({ path: await screenshot(page, `picture-search-${lang}-tenant`) });
    await call('PUT', '/admin/admin/tenant', { pictureSearchType: 'Similarity' });
  }, 240_000);
});
