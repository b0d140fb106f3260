/**
 * A big bill in the browser: the real bill form (built web app, real server on the embedded database with
 * the demo tenant) in Chromium, driven by playwright-core. A purchase order of BENCH_LINES lines (default
 * 2,750) is saved through the API, then on the page:
 *
 *   open     click its code in the list → the form shows every line's total (the line count in the totals)
 *   type     keystrokes into the quantity cell of the first, middle and last line: the longest input delay
 *            to the next paint of each keystroke (Chromium's Event Timing, as INP measures it)
 *   add      "add line" → the new line is in the form (line count + 1)
 *   edit     a price typed into the middle line → the totals show the new amount
 *   save     the save button → the success message, and the bill read back into the form
 *   reopen   close, open again
 *   api save the same bill's PUT straight to the API (what the page's time is compared with)
 *
 *   npx tsx bench/bill-form.ts                        # builds what is stale, starts a server, 2,750 lines, 3 runs
 *   BENCH_LINES=200 BENCH_RUNS=1 npx tsx bench/bill-form.ts
 *   BENCH_URL=http://127.0.0.1:8080 npx tsx bench/bill-form.ts   # against a running server (demo data), as it serves its web app
 *   BENCH_PROFILE=1 …                                 # also a CPU profile of the typing and the save (bench/results/)
 */
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { busyTime, cpuProfile, demoCaller, median, ms, timedOn, type Figure } from './browser-bench.ts';
import { buildWebIfNeeded, DEMO, launchBrowser, newContext, ROOT, signedInState, startServer, type TestServer } from '../e2e/harness.ts';

const LINES = Number(process.env.BENCH_LINES ?? 2750);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PROFILE = !!process.env.BENCH_PROFILE;
const RESULTS = path.join(ROOT, 'bench/results');

type Run = Record<'open' | 'typeFirst' | 'typeMiddle' | 'typeLast' | 'add' | 'edit' | 'save' | 'reopen' | 'apiSave', Figure>;

let cdp: CDPSession;
const busy = () => busyTime(cdp);
const timed = (work: () => Promise<unknown>) => timedOn(cdp, work);

async function setUp(server: TestServer) {
  const call = await demoCaller(server);
  const materials = await call<Array<{ id: number; mainUnitId: number }>>('GET', '/admin/basic/material/picker?current=1&pageSize=50');
  const suppliers = await call<Array<{ id: number }>>('GET', '/admin/basic/supplier?current=1&pageSize=5');
  const lines = Array.from({ length: LINES }, (_, i) => {
    const m = materials[i % materials.length]!;
    return { materialId: m.id, unitId: m.mainUnitId, number: 1 + (i % 9), unitPrice: 1 + (i % 50) / 10 };
  });
  const { id } = await call<{ id: number }>('POST', '/admin/purchase/order', { billDate: new Date().toISOString().slice(0, 10), supplierId: suppliers[0]!.id, lines });
  const bill = await call<{ billCode: string; lines: Array<Record<string, unknown>> }>('GET', `/admin/purchase/order/${id}`);
  // The API's own save of the same bill, for comparison with the page's.
  const started = performance.now();
  await call('PUT', '/admin/purchase/order', { id, billDate: new Date().toISOString().slice(0, 10), supplierId: suppliers[0]!.id, lines: bill.lines.map((l) => ({ id: l.id, materialId: l.materialId, unitId: l.unitId, number: l.number, unitPrice: l.unitPrice })) });
  const apiSave = performance.now() - started;
  return { id, billCode: bill.billCode, apiSave };
}

/** Collects Event Timing entries (input delay + processing + the next paint) from the page. */
async function watchInputs(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __events: Array<{ name: string; duration: number; interactionId: number }> };
    w.__events = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { interactionId?: number }>) w.__events.push({ name: e.name, duration: e.duration, interactionId: e.interactionId ?? 0 });
    }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
  });
}

/** The longest keyboard event (to its next paint) since the last call; 0 when every one was under 16 ms. */
async function longestKey(page: Page): Promise<number> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  return page.evaluate(() => {
    const w = window as unknown as { __events: Array<{ name: string; duration: number }> };
    const keys = w.__events.filter((e) => e.name.startsWith('key') || e.name === 'input' || e.name === 'beforeinput');
    w.__events = [];
    return keys.reduce((max, e) => Math.max(max, e.duration), 0);
  });
}

const frame = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Brings line `index` into the grid's view (scrolling its rows), however many of them the page draws. */
async function reveal(page: Page, index: number, field: string) {
  const cell = page.getByTestId(`bill-line-${index}-${field}`);
  for (let attempt = 0; attempt < 40; attempt++) {
    if (await cell.count()) {
      await cell.scrollIntoViewIfNeeded();
      return cell;
    }
    await page.evaluate(
      ({ index, total }) => {
        const grid = document.querySelector('[data-testid="bill-lines"]');
        const scroller = Array.from(grid?.querySelectorAll<HTMLElement>('*') ?? []).find((e) => e.scrollHeight > e.clientHeight + 10 && getComputedStyle(e).overflowY !== 'visible');
        if (scroller) scroller.scrollTop = (scroller.scrollHeight * index) / total;
      },
      { index, total: LINES + 1 },
    );
    await frame(page);
  }
  throw new Error(`line ${index} never appeared`);
}

/**
 * Types `text` into the quantity of line `index` key by key: the longest keystroke to its next paint (Event
 * Timing), and the most main-thread time one keystroke took.
 */
async function typeInto(page: Page, index: number, text: string): Promise<Figure> {
  const cell = await reveal(page, index, 'number');
  const input = cell.locator('input').or(cell.and(page.locator('input'))).first();
  await input.click();
  await input.press('End');
  await longestKey(page);
  const most: Figure = { wall: 0, busy: 0 };
  for (const key of text) {
    const b0 = await busy();
    await page.keyboard.press(key);
    most.wall = Math.max(most.wall, await longestKey(page));
    most.busy = Math.max(most.busy, (await busy()) - b0);
  }
  return most;
}

async function openBill(page: Page, id: number): Promise<Figure> {
  return timed(async () => {
  await page.getByTestId(`bill-open-${id}`).click();
  await page.waitForFunction(
    ({ lines }) => {
      const totals = document.querySelector('[data-testid="bill-totals"]')?.textContent ?? '';
      return new RegExp(`\\b${lines}\\b`).test(totals.replace(/,/g, '')) && !document.querySelector('[data-testid="bill-form"] .ant-spin-spinning');
    },
    { lines: LINES },
    { timeout: 300_000, polling: 50 },
  );
  await frame(page);
  });
}

const profile = <T,>(session: CDPSession, name: string, work: () => Promise<T>) => cpuProfile(session, path.join(RESULTS, `bill-form-${name}.cpuprofile`), name, PROFILE, work);

const external = process.env.BENCH_URL;
if (!external) buildWebIfNeeded();
const server: TestServer = external
  ? { baseURL: external, port: Number(new URL(external).port), dataDir: '', output: () => '', restart: async () => {}, stop: async () => {} }
  : await startServer('bench-bill-form');
const browser = await launchBrowser();
const runs: Run[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const bill = await setUp(server);
    const context = await newContext(browser, server, { storageState: await signedInState(server, DEMO.name, DEMO.password) });
    const page = await context.newPage();
    page.setDefaultTimeout(300_000);
    page.on('pageerror', (error) => console.warn(`page error: ${error.message}`));
    const session = await context.newCDPSession(page);
    cdp = session;
    await session.send('Performance.enable');
    await page.goto('/purchase/order');
    await page.getByTestId(`bill-open-${bill.id}`).waitFor();
    await watchInputs(page);

    const step = (what: string) => process.env.BENCH_VERBOSE && console.log(`[${new Date().toISOString().slice(11, 19)}] ${what}`);
    step('set up; opening');
    const open = await profile(session, 'open', () => openBill(page, bill.id));
    step(`opened in ${Math.round(open.wall)} ms`);
    const middle = Math.floor(LINES / 2);
    const typeFirst = await typeInto(page, 0, '12');
    const typeMiddle = await profile(session, 'type', () => typeInto(page, middle, '34'));
    const typeLast = await typeInto(page, LINES - 1, '5');

    step('typed');
    const add = await timed(async () => {
      await page.getByTestId('bill-line-add').click();
      await page.waitForFunction((n) => (document.querySelector('[data-testid="bill-totals"]')?.textContent ?? '').replace(/,/g, '').includes(String(n)), LINES + 1, { polling: 50 });
      await frame(page);
    });
    // The new line has no material: take it away again, so that the bill still saves.
    await (await reveal(page, LINES, 'remove')).click();
    await page.waitForFunction((n) => new RegExp(`\\b${n}\\b`).test((document.querySelector('[data-testid="bill-totals"]')?.textContent ?? '').replace(/,/g, '')), LINES, { polling: 50 });

    const before = await page.getByTestId('bill-total-amount').textContent();
    const price = (await reveal(page, middle, 'unitPrice')).locator('input').or(page.getByTestId(`bill-line-${middle}-unitPrice`).and(page.locator('input'))).first();
    await price.click();
    await price.press('End');
    const edit = await timed(async () => {
      await page.keyboard.press('7');
      await page.waitForFunction((text) => document.querySelector('[data-testid="bill-total-amount"]')?.textContent !== text, before, { polling: 'raf' });
      await frame(page);
    });

    step('saving');
    const reread = page.waitForResponse((r) => r.request().method() === 'GET' && r.url().endsWith(`/api/admin/purchase/order/${bill.id}`));
    const save = await timed(() => profile(session, 'save', async () => {
      await page.getByTestId('bill-save').click();
      await page.locator('.ant-message-success').first().waitFor();
      await reread;
      await page.waitForFunction(() => !document.querySelector('[data-testid="bill-form"] .ant-spin-spinning'), null, { polling: 50 });
      await frame(page);
    }));

    await page.getByTestId('bill-close').click();
    await page.getByTestId('bill-form').waitFor({ state: 'detached' }).catch(() => undefined);
    const reopen = await openBill(page, bill.id);

    runs.push({ open, typeFirst, typeMiddle, typeLast, add, edit, save, reopen, apiSave: { wall: bill.apiSave, busy: 0 } });
    console.log(`run ${run + 1}:`, Object.fromEntries(Object.entries(runs.at(-1)!).map(([k, v]) => [k, `${Math.round(v.wall)} / ${Math.round(v.busy)}`])));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const keys: Array<[keyof Run, string]> = [
  ['open', 'open the bill (click → every line in the form)'],
  ['typeFirst', 'a keystroke in line 1 (longest, to next paint)'],
  ['typeMiddle', `a keystroke in line ${Math.floor(LINES / 2) + 1}`],
  ['typeLast', `a keystroke in line ${LINES}`],
  ['add', 'add a line'],
  ['edit', 'a price typed → totals updated'],
  ['save', 'save (click → saved and read back into the form)'],
  ['reopen', 'close and open again'],
  ['apiSave', 'the same save through the API alone'],
];
console.log(`\n${LINES} lines, ${RUNS} run(s), medians; wall time, and the page's main-thread busy time (a keystroke's wall time is its Event Timing duration, 0 when under 16 ms)\n`);
console.log('| step | wall | page busy | runs (wall / busy) |');
console.log('|---|---:|---:|---|');
for (const [key, label] of keys) {
  const wall = median(runs.map((r) => r[key].wall));
  const cpu = median(runs.map((r) => r[key].busy));
  console.log(`| ${label} | ${ms(wall)} | ${key === 'apiSave' ? '–' : ms(cpu)} | ${runs.map((r) => `${ms(r[key].wall)} / ${ms(r[key].busy)}`).join(', ')} |`);
}
