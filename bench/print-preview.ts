/**
 * A 2,750-line bill's print preview in the browser: the real bill form (built web app, real server on the
 * embedded database with the demo tenant) in Chromium, driven by playwright-core. A purchase order of
 * BENCH_LINES lines (default 2,750) is saved through the API, and for each template — the type's starter
 * template (A4 portrait) and an A5 landscape copy of it (twice the pages) — on the page:
 *
 *   first    click "print" on the bill form → the dialog shows the page count and its first page drawn
 *            (the templates read, the print model — every text, each line's height, the pages — and the
 *            pages in view)
 *   last     the preview scrolled to its end → the last page drawn, its last line there
 *   print    "print" → every page drawn into the print root and the browser's print called (stubbed)
 *
 *   npx tsx bench/print-preview.ts                        # builds what is stale, starts a server, 2,750 lines, 3 runs
 *   BENCH_LINES=500 BENCH_RUNS=1 npx tsx bench/print-preview.ts
 *   BENCH_LANG=en …                                       # the page in English (default zh)
 *   BENCH_PROFILE=1 …                                     # a CPU profile of opening the preview and of the print
 *
 * A screenshot of each preview goes to bench/results/print-preview-<paper>-<lang>.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { cpuProfile, demoCaller, median, ms, timedOn, type Figure } from './browser-bench.ts';
import { buildWebIfNeeded, DEMO, launchBrowser, newContext, ROOT, signedInState, startServer, type TestServer } from '../e2e/harness.ts';

const LINES = Number(process.env.BENCH_LINES ?? 2750);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LANG = process.env.BENCH_LANG === 'en' ? 'en' : 'zh';
const PROFILE = !!process.env.BENCH_PROFILE;
const RESULTS = path.join(ROOT, 'bench/results');

type Step = 'first' | 'last' | 'print';
type Run = Record<string, Record<Step, Figure> & { pages: number }>;

let cdp: CDPSession;
const timed = (work: () => Promise<unknown>) => timedOn(cdp, work);
const profile = <T,>(name: string, work: () => Promise<T>) => cpuProfile(cdp, path.join(RESULTS, `print-preview-${name}.cpuprofile`), name, PROFILE, work);

interface Template { id: number | null; name: string; layout: { paper: { margin: { left: number; right: number } } & Record<string, unknown> } & Record<string, unknown> }

/** The A5 landscape template's name, once the run's templates are added (the first run adds them). */
let a5: string | undefined;

/**
 * The type's starter layout as a template of the tenant (the type's first template: its default, which the
 * dialog opens with), then an A5 landscape copy of it; answers the copy's name.
 */
async function addTemplates(call: Awaited<ReturnType<typeof demoCaller>>): Promise<string> {
  const templates = await call<Template[]>('GET', '/admin/purchase/order/print/templates');
  const name = `A5 landscape ${Date.now()}`;
  const starter = templates.find((t) => t.id === null)!;
  const paper = { ...starter.layout.paper, kind: 'A5', width: 148, height: 210, orientation: 'landscape' };
  // The starter's header and footer elements sit on A4's width: those past A5 landscape's are left out.
  const inner = 210 - paper.margin.left - paper.margin.right;
  const band = (b: { height: number; elements: Array<{ x: number; w: number }> }) => ({ ...b, elements: b.elements.filter((e) => e.x + e.w <= inner) });
  const table = starter.layout.table as { columns: Array<{ key: string; width: number }> };
  const scale = inner / table.columns.reduce((s, c) => s + c.width, 0);
  const layout = { ...starter.layout, paper, header: band(starter.layout.header as never), footer: band(starter.layout.footer as never), table: { ...table, columns: table.columns.map((c) => ({ ...c, width: Math.floor(c.width * scale * 10) / 10 })) } };
  await call('POST', '/admin/system/printTemplate', { billType: 'PurchaseOrder', name: `A4 portrait ${Date.now()}`, layout: starter.layout });
  await call('POST', '/admin/system/printTemplate', { billType: 'PurchaseOrder', name, layout });
  return name;
}

/** The purchase order of LINES lines, and the templates the first time. */
async function setUp(server: TestServer) {
  const call = await demoCaller(server);
  // As the E2E spec's bills: the first five materials in turn.
  const materials = await call<Array<{ id: number }>>('GET', '/admin/basic/material?current=1&pageSize=5');
  const suppliers = await call<Array<{ id: number }>>('GET', '/admin/basic/supplier?current=1&pageSize=5');
  const lines = Array.from({ length: LINES }, (_, i) => ({ materialId: materials[i % materials.length]!.id, number: 1 + (i % 9), unitPrice: 1 + (i % 50) / 10 }));
  const { id } = await call<{ id: number }>('POST', '/admin/purchase/order', { billDate: new Date().toISOString().slice(0, 10), supplierId: suppliers[0]!.id, lines });
  a5 ??= await addTemplates(call);
  return { id, a5 };
}

const frame = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The preview of the bill on the template `name` (null: the one the dialog opens with), timed. */
async function previewOn(page: Page, billId: number, name: string | null, label: string) {
  await page.getByTestId(`bill-open-${billId}`).click();
  const print = page.getByTestId('bill-print');
  await print.waitFor({ timeout: 300_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="bill-form"] .ant-spin-spinning'), null, { polling: 50, timeout: 300_000 });
  const preview = page.getByTestId('bill-print-preview');
  let first: Figure;
  if (name === null) {
    first = await timed(() =>
      profile(`${label}-first`, async () => {
        await print.click();
        await preview.locator('[data-testid="print-page"] tr[data-line="1"]').waitFor({ state: 'attached', timeout: 300_000 });
        await preview.getByTestId('bill-print-pages').waitFor();
        await frame(page);
      }),
    );
  } else {
    await print.click();
    await preview.locator('[data-testid="print-page"] tr[data-line="1"]').waitFor({ state: 'attached', timeout: 300_000 });
    await preview.getByTestId('bill-print-template').click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name });
    const before = await preview.getByTestId('bill-print-pages').textContent();
    first = await timed(() =>
      profile(`${label}-first`, async () => {
        await option.click();
        // The other template's page count, and its first page (landscape: wider than tall).
        await page.waitForFunction(
          (text) => {
            const sheet = document.querySelector<HTMLElement>('.p8-print-sheets [data-testid="print-page"]');
            return document.querySelector('[data-testid="bill-print-pages"]')?.textContent !== text && !!sheet && sheet.offsetWidth > sheet.offsetHeight;
          },
          before,
          { polling: 50, timeout: 300_000 },
        );
        await preview.locator('[data-testid="print-page"] tr[data-line="1"]').waitFor({ state: 'attached', timeout: 300_000 });
        await frame(page);
      }),
    );
  }
  const pages = Number(/(\d[\d,]*)/.exec((await preview.getByTestId('bill-print-pages').textContent()) ?? '')![1].replace(/,/g, ''));
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS, `print-preview-${label}-${LANG}.png`) });
  const last = await timed(async () => {
    await page.evaluate(() => {
      const sheets = document.querySelector<HTMLElement>('.p8-print-sheets')!;
      sheets.scrollTop = sheets.scrollHeight;
    });
    await preview.locator(`[data-testid="print-page"] tr[data-line="${LINES}"]`).waitFor({ state: 'attached', timeout: 300_000 });
    await frame(page);
  });
  await page.evaluate(() => void ((window as unknown as { printed: number }).printed = 0));
  const printed = await timed(() =>
    profile(`${label}-print`, async () => {
      await preview.getByTestId('bill-print-go').click();
      await page.waitForFunction(() => (window as unknown as { printed: number }).printed > 0, null, { polling: 50, timeout: 600_000 });
    }),
  );
  const inRoot = await page.getByTestId('bill-print-root').getByTestId('print-page').count();
  if (inRoot !== pages) throw new Error(`the print root holds ${inRoot} pages, the preview says ${pages}`);
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await page.keyboard.press('Escape');
  await preview.waitFor({ state: 'detached' });
  await page.getByTestId('bill-close').click();
  await page.getByTestId('bill-form').waitFor({ state: 'detached' }).catch(() => undefined);
  return { first, last, print: printed, pages };
}

const external = process.env.BENCH_URL;
if (!external) buildWebIfNeeded();
const server: TestServer = external
  ? { baseURL: external, port: Number(new URL(external).port), dataDir: '', output: () => '', restart: async () => {}, stop: async () => {} }
  : await startServer('bench-print-preview');
const browser = await launchBrowser();
const runs: Run[] = [];
const templates: Array<[string, (a5: string) => string | null]> = [
  ['A4 portrait (starter layout)', () => null],
  ['A5 landscape', (a5) => a5],
];
try {
  for (let run = 0; run < RUNS; run++) {
    const bill = await setUp(server);
    const context = await newContext(browser, server, { locale: LANG === 'en' ? 'en-US' : 'zh-CN', storageState: await signedInState(server, DEMO.name, DEMO.password) });
    // The app's language follows the browser's (a new context keeps nothing); the print is counted, not opened.
    await context.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    const page = await context.newPage();
    page.setDefaultTimeout(300_000);
    page.on('pageerror', (error) => console.warn(`page error: ${error.message}`));
    cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto('/purchase/order');
    await page.getByTestId(`bill-open-${bill.id}`).waitFor();
    const result: Run = {};
    for (const [label, name] of templates) {
      result[label] = await previewOn(page, bill.id, name(bill.a5), label.split(' ')[0]!).catch(async (error: unknown) => {
        mkdirSync(RESULTS, { recursive: true });
        await page.screenshot({ path: path.join(RESULTS, 'print-preview-failed.png') });
        throw error;
      });
      console.log(`run ${run + 1}, ${label}:`, Object.fromEntries(Object.entries(result[label]!).map(([k, v]) => [k, typeof v === 'number' ? v : `${Math.round(v.wall)} / ${Math.round(v.busy)}`])));
    }
    runs.push(result);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const steps: Array<[Step, string]> = [
  ['first', 'open the preview (click → page count and first page drawn)'],
  ['last', 'scroll to the end (→ the last page drawn)'],
  ['print', 'print (click → every page drawn for the print, print called)'],
];
console.log(`\n${LINES} lines, ${LANG}, ${RUNS} run(s), medians; wall time, and the page's main-thread busy time\n`);
console.log('| template (pages) | step | wall | page busy | runs (wall / busy) |');
console.log('|---|---|---:|---:|---|');
for (const [label] of templates)
  for (const [step, what] of steps) {
    const figures = runs.map((r) => r[label]![step]);
    console.log(`| ${label} (${runs[0]![label]!.pages}) | ${what} | ${ms(median(figures.map((f) => f.wall)))} | ${ms(median(figures.map((f) => f.busy)))} | ${figures.map((f) => `${ms(f.wall)} / ${ms(f.busy)}`).join(', ')} |`);
  }
