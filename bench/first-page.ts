/**
 * What a first visit downloads, measured in a real Chromium against the real server (`npm start`'s
 * server on a fresh embedded database, the built web app): the login page, then the shell after
 * signing in as the demo administrator. For each step: JavaScript files, bytes transferred over the
 * wire (compressed, headers included — Chromium's `encodedDataLength`), and their size once decompressed;
 * the same for everything else (HTML, CSS, JSON, images). A cold cache each run; median of the runs.
 *
 *   npx tsx bench/first-page.ts                 # 3 runs
 *   BENCH_RUNS=5 BENCH_LIST=1 npx tsx bench/first-page.ts   # BENCH_LIST prints every script of the last run, per step
 */
import type { CDPSession, Page } from 'playwright-core';
import { buildWebIfNeeded, DEMO, launchBrowser, login, newContext, startServer } from '../e2e/harness.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Resource {
  url: string;
  type: string;
  encoding: string;
  transferred: number;
  decoded: number;
}

/** Every response of the page, with its size on the wire once it has finished loading. */
async function recordNetwork(page: Page): Promise<{ session: CDPSession; resources: Resource[] }> {
  const session = await page.context().newCDPSession(page);
  const pending = new Map<string, Omit<Resource, 'transferred' | 'decoded'>>();
  const resources: Resource[] = [];
  session.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    pending.set(event.requestId, { url: event.response.url, type: event.type, encoding: headers['content-encoding'] ?? 'identity' });
  });
  session.on('Network.dataReceived', (event) => {
    const entry = pending.get(event.requestId) as (Omit<Resource, 'transferred'> & { decoded?: number }) | undefined;
    if (entry) entry.decoded = (entry.decoded ?? 0) + event.dataLength;
  });
  session.on('Network.loadingFinished', (event) => {
    const entry = pending.get(event.requestId) as (Omit<Resource, 'transferred'> & { decoded?: number }) | undefined;
    if (!entry) return;
    pending.delete(event.requestId);
    resources.push({ ...entry, decoded: entry.decoded ?? 0, transferred: event.encodedDataLength });
  });
  await session.send('Network.enable');
  await session.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { session, resources };
}

interface Totals {
  jsFiles: number;
  jsTransferred: number;
  jsDecoded: number;
  otherTransferred: number;
  encodings: string;
}

function totals(resources: Resource[]): Totals {
  const js = resources.filter((r) => r.type === 'Script');
  const encodings = [...new Set(js.map((r) => r.encoding))].join('/');
  return {
    jsFiles: js.length,
    jsTransferred: js.reduce((sum, r) => sum + r.transferred, 0),
    jsDecoded: js.reduce((sum, r) => sum + r.decoded, 0),
    otherTransferred: resources.filter((r) => r.type !== 'Script').reduce((sum, r) => sum + r.transferred, 0),
    encodings,
  };
}

/** Waits until no request has been in flight for `quietMs` (chunks loaded after the first paint included). */
async function settle(page: Page, quietMs = 1000): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(quietMs);
  await page.waitForLoadState('networkidle');
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

buildWebIfNeeded();
const server = await startServer('bench-first-page');
const browser = await launchBrowser();
const loginRuns: Totals[] = [];
const shellRuns: Totals[] = [];
const wholeRuns: Totals[] = [];
let lastResources: Resource[] = [];
let lastAtLogin = 0;
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await newContext(browser, server);
    const page = await context.newPage();
    // Sizes do not depend on time: a loaded machine may take long, it must not fail the run.
    page.setDefaultTimeout(180_000);
    const { resources } = await recordNetwork(page);
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    await settle(page);
    const atLogin = resources.length;
    loginRuns.push(totals(resources.slice(0, atLogin)));
    await login(page, DEMO.name, DEMO.password);
    await page.getByTestId('tabs-bar').waitFor();
    await settle(page);
    shellRuns.push(totals(resources.slice(atLogin)));
    wholeRuns.push(totals(resources));
    lastResources = [...resources];
    lastAtLogin = atLogin;
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const row = (label: string, runs: Totals[]) =>
  `| ${label} | ${median(runs.map((r) => r.jsFiles))} | **${kb(median(runs.map((r) => r.jsTransferred)))}** | ${kb(median(runs.map((r) => r.jsDecoded)))} | ${runs[0]!.encodings} | ${kb(median(runs.map((r) => r.otherTransferred)))} |`;
console.log('| step | JS files | JS transferred | JS decompressed | JS encoding | other transferred |');
console.log('|---|---:|---:|---:|---|---:|');
console.log(row('login page (`/login`, cold cache)', loginRuns));
console.log(row('sign-in → shell with home (added)', shellRuns));
console.log(row('login page + shell (whole visit)', wholeRuns));
console.log(`\n${RUNS} runs; transferred sizes are each run's sum of Chromium's encodedDataLength (headers included).`);
if (process.env.BENCH_LIST) {
  for (const [step, resources] of [['login page', lastResources.slice(0, lastAtLogin)], ['shell (added)', lastResources.slice(lastAtLogin)]] as const) {
    console.log(`\n${step}:`);
    for (const r of resources.filter((x) => x.type === 'Script').sort((a, b) => b.transferred - a.transferred)) {
      console.log(`${kb(r.transferred).padStart(9)} ${kb(r.decoded).padStart(9)} ${r.encoding.padEnd(8)} ${new URL(r.url).pathname}`);
    }
  }
}
