import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { inject, onTestFinished } from 'vitest';
import { buildServer, serverBuildIsStale, SERVER_BUNDLE } from '../scripts/build-server.mjs';
import { webBuildIsStale } from '../scripts/start.mjs';

/**
 * End-to-end harness: the real server — the bundle `npm start` runs (server/dist/main.mjs), not the
 * sources — on embedded PGlite in a fresh temporary DATA_DIR, demo tenants seeded, captcha and SMS codes
 * exposed; and Debian's Chromium driven by playwright-core.
 * One server per spec file keeps the files independent (failed-login counters, changed passwords).
 * The global setup migrates and seeds one embedded database once; every server starts on a copy of it.
 */
/** How much longer than usual things may take on a busy machine (P8_TEST_TIME_SCALE, default 1; see docs/testing.md). */
export const TIME_SCALE = Math.max(1, Number(process.env.P8_TEST_TIME_SCALE) || 1);
export const ROOT = path.resolve(import.meta.dirname, '..');
export const ARTIFACTS = path.join(ROOT, 'e2e/artifacts');
/**
 * The Chromium the specs drive: `CHROMIUM_PATH`, else Debian's headless shell (`chromium-headless-shell`, the same
 * Chromium build without the browser's window layer: the same pages and screenshots for about a third less CPU a
 * page load, measured on this suite), else Debian's full `chromium` in its headless mode.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const DEMO = { name: 'admin', password: 'admin123' } as const;
export const DEMO2 = { name: 'admin2', password: 'admin123' } as const;

// ---------------------------------------------------------------- web build

/** Builds the web app (the same as `npm start` does) when `web/dist` is missing or older than its sources. */
export function buildWebIfNeeded(): void {
  if (!webBuildIsStale(ROOT)) return;
  console.log('[e2e] building the web app…');
  // NODE_ENV as `npm start` builds: under vitest it is 'test', and Vite would then build React's development
  // code (the login page went from 249 to 301 KB) — which the specs would test and a later `npm start` serve.
  const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error('the web build failed');
}

/** Bundles the server (the same as `npm start` does) when the bundle is missing or older than its sources. */
export async function buildServerIfNeeded(): Promise<void> {
  if (!serverBuildIsStale(ROOT)) return;
  console.log('[e2e] bundling the server…');
  await buildServer(ROOT);
}

// ---------------------------------------------------------------- server

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  baseURL: string;
  port: number;
  dataDir: string;
  /** What the server printed so far (shown when a start fails). */
  output(): string;
  /**
   * Stops the process (SIGTERM, as a deployment would), runs `whileDown`, and starts it again on the same
   * port with the same settings and data; resolves once it answers again.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** A DATA_DIR whose embedded database is migrated and seeded (global-setup.ts). */
    e2eTemplateDataDir: string;
  }
}

/** The seeded template of the global setup, when running under vitest with it. */
function templateDataDir(): string | undefined {
  try {
    const dir = inject('e2eTemplateDataDir');
    return dir && existsSync(dir) ? dir : undefined;
  } catch {
    return undefined; // not inside a vitest worker
  }
}

/** What the server logs when the last part of the demo (the messages, after the service orders) is seeded, or failed. */
const DEMO_DONE = /seeded the messages of|could not be seeded/;

/**
 * Migrates and seeds an embedded database once, by starting the server on `dataDir` and stopping it
 * cleanly once the whole demo is seeded (it seeds the mall and the service orders after it starts serving;
 * a copy stopped half-way would make every spec's server seed the rest in the background, slowing the
 * screens under test); servers started afterwards on a copy skip the migrations and the demo seed.
 */
export async function prepareTemplateDataDir(dataDir: string, env: Record<string, string> = {}): Promise<void> {
  const server = await startServer('template', { dataDir, keepDataDir: true, expectWeb: false, env: { ...env, LOG_LEVEL: 'info' } });
  try {
    await waitUntil(() => DEMO_DONE.test(server.output()), (done) => done, 'the demo seed to finish', 180_000 * TIME_SCALE);
    if (/could not be seeded/.test(server.output())) throw new Error(`the demo could not be seeded:\n${server.output().slice(-5000)}`);
  } finally {
    await server.stop();
  }
}

/**
 * Where the servers of a multi-process spec meet: a PostgreSQL database (a URL) and Redis (a URL and the
 * key prefix of this run, so that parallel runs on one Redis never see each other's channels).
 */
export interface SharedBackend {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
}

/**
 * The PostgreSQL server and Redis of the environment (`DATABASE_URL`, `REDIS_URL`; CI sets both), or why a
 * multi-process spec cannot run here.
 */
export function sharedBackendSettings(): { databaseUrl: string; redisUrl: string } | { skip: string } {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  const missing = [!databaseUrl && 'DATABASE_URL', !redisUrl && 'REDIS_URL'].filter(Boolean);
  if (!databaseUrl || !redisUrl) return { skip: `${missing.join(' and ')} not set (CI sets both)` };
  return { databaseUrl, redisUrl };
}

/**
 * Creates an empty PostgreSQL database of its own next to the one `baseUrl` names (through `psql`, which the
 * PostgreSQL client installs), for the servers of one spec; `drop()` removes it, ending its connections.
 */
export function createPostgresDatabase(baseUrl: string, label: string): { databaseUrl: string; drop(): void } {
  const name = `p8_e2e_${label.replace(/\W/g, '_')}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const psql = (statement: string) => {
    const result = spawnSync('psql', [baseUrl, '-v', 'ON_ERROR_STOP=1', '-qc', statement], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`psql ${statement}: ${result.error?.message ?? result.stderr}`);
  };
  psql(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { databaseUrl: url.toString(), drop: () => psql(`drop database if exists "${name}" with (force)`) };
}

/**
 * Starts the server bundle on a free loopback port (or `port`). By default on a fresh embedded database
 * (a copy of the global setup's seeded one); with `shared`, on that PostgreSQL database and Redis instead
 * (migrated on start, no demo data: the spec registers what it needs).
 */
export async function startServer(
  label = 'e2e',
  options: { env?: Record<string, string>; expectWeb?: boolean; dataDir?: string; keepDataDir?: boolean; shared?: SharedBackend; port?: number } = {},
): Promise<TestServer> {
  await buildServerIfNeeded();
  const port = options.port ?? (await freePort());
  let dataDir = options.dataDir;
  if (!dataDir) {
    dataDir = mkdtempSync(path.join(tmpdir(), `p8-e2e-${label}-`));
    const template = templateDataDir();
    if (template && !options.shared) cpSync(template, dataDir, { recursive: true });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EXPOSE_CODES_FOR_TESTS: '1',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(ROOT, 'web/dist'),
    ...options.env,
  };
  // The browser suite runs on the embedded database, even in CI where these are exported, unless a spec
  // asks for the shared PostgreSQL and Redis (the multi-process chat).
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.REDIS_PREFIX;
  delete env.SEED_DEMO;
  if (options.shared) {
    env.DATABASE_URL = options.shared.databaseUrl;
    env.REDIS_URL = options.shared.redisUrl;
    env.REDIS_PREFIX = options.shared.redisPrefix;
    env.SEED_DEMO = '0';
  }

  let log = '';
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  const baseURL = `http://127.0.0.1:${port}`;

  const launch = () => {
    const started = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const append = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.length > 200_000) log = log.slice(-100_000);
    };
    started.stdout?.on('data', append);
    started.stderr?.on('data', append);
    exited = new Promise((resolve) => started.once('exit', resolve));
    child = started;
  };
  /** Ends the process, if it runs, and keeps its output. */
  const halt = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const running = child;
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(path.join(ARTIFACTS, `server-${label}.log`), log);
  };
  const stop = async () => {
    await halt();
    if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  /** Polls until the server answers (it migrates first); fails with its output when it exits or stays silent. */
  const ready = async () => {
    const deadline = Date.now() + 180_000 * TIME_SCALE;
    for (;;) {
      if (child?.exitCode !== null) {
        await stop();
        throw new Error(`the server exited with code ${child?.exitCode} before it was ready:\n${log}`);
      }
      try {
        const res = await fetch(`${baseURL}/api/base/system/config`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`the server did not answer /api/base/system/config within ${180 * TIME_SCALE} s:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  launch();
  await ready();
  const index = await fetch(baseURL + '/');
  if (options.expectWeb !== false && !(await index.text()).includes('<div id="root"')) {
    await stop();
    throw new Error('the server does not serve the built web app at / (is web/dist built?)');
  }
  return {
    baseURL,
    port,
    dataDir,
    output: () => log,
    async restart(whileDown) {
      await halt();
      log += '\n---- restarted by the test ----\n';
      await whileDown?.();
      launch();
      await ready();
    },
    stop,
  };
}

// ---------------------------------------------------------------- browser

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A fresh context (own local storage) in Chinese, the product's default language, unless told otherwise.
 * It asks for reduced motion, as a user may in the system settings: the app then turns antd's animations off
 * (`useAntdTheme`), so a dropdown, dialog or drawer is there — or gone — at once instead of after 0.2–0.3 s of
 * frames that Playwright waits out before each click (an element must stand still) and that a busy machine
 * renders slowly.
 */
export async function newContext(browser: Browser, server: TestServer, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(15_000 * TIME_SCALE);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/**
 * Everything a spec file needs: one server, one browser; a clean page per call of `page()` or `signedInPage()`,
 * in a context of its own (`contextPool`).
 */
export interface Suite {
  server: TestServer;
  browser: Browser;
  /** A new page in a context of its own with clean storage (see `contextPool`). */
  page(options?: BrowserContextOptions): Promise<Page>;
  /**
   * A new page in a context of its own that is already signed in as `account` (through the API, see
   * `signedInState`), showing the shell's home screen. The login spec signs in through the form.
   */
  signedInPage(account: { name: string; password: string }, options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/** A new page in a new context of `browser` on `server`; the context is added to `contexts` (to close them). */
export async function openPage(browser: Browser, server: TestServer, contexts: BrowserContext[], label: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await newContext(browser, server, options);
  contexts.push(context);
  return newPageOf(context, label);
}

async function newPageOf(context: BrowserContext, label: string): Promise<Page> {
  const opened = await context.newPage();
  opened.on('pageerror', (error) => console.warn(`[browser ${label}] page error: ${error.message}`));
  return opened;
}

/** Loads the app in `page` (whose storage holds a token) and waits for the shell's home screen. */
async function showSignedIn(page: Page): Promise<Page> {
  await page.goto('/');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('tabs-bar').waitFor();
  return page;
}

/**
 * A new page on `server` already signed in as `account` (through the API, see `signedInState`), showing the
 * shell's home screen.
 */
export async function openSignedInPage(
  browser: Browser,
  server: TestServer,
  contexts: BrowserContext[],
  label: string,
  account: { name: string; password: string },
  options: BrowserContextOptions = {},
): Promise<Page> {
  return showSignedIn(await openPage(browser, server, contexts, label, { ...options, storageState: await signedInState(server, account.name, account.password) }));
}

/**
 * The browser contexts of one spec file, reused from test to test. A page asked for inside a test gets a
 * context that no page of a running test uses. Once that test has ended, the context is handed out again at
 * the next request for a page: its pages are closed then (not at the end of the test, since the tests of a
 * scenario may go on with the page the first of them opened — bills, bill-keyboard, declared-records) and its
 * storage replaced (`setStorageState`: cookies, local storage and IndexedDB cleared, then the state asked for
 * set; session storage belongs to the page, which is new). What a context keeps is its HTTP cache — with the
 * compiled code of the app's scripts —, as a user's browser keeps it between visits: every test after the
 * first loads the app from that cache instead of fetching and compiling ≈ 4 MB of script again, and no page of
 * an earlier test keeps running (polling, sockets, timers) beside the one under test. Contexts are told apart
 * by their options (locale, viewport, permissions…). A page asked for outside a test (in `beforeAll`) keeps its
 * context until the file ends.
 */
export function contextPool(browser: Browser, server: TestServer, label: string) {
  /** Contexts whose test has ended, by their options; their pages are still open. */
  const ended = new Map<string, BrowserContext[]>();
  const all = new Set<BrowserContext>();
  const empty = { cookies: [], origins: [] };
  return {
    async page(options: BrowserContextOptions = {}): Promise<Page> {
      const { storageState, ...settings } = options;
      const key = JSON.stringify(settings);
      const waiting = ended.get(key) ?? [];
      let context: BrowserContext | undefined;
      while (!context && waiting.length > 0) {
        const next = waiting.pop()!;
        if (all.has(next)) context = next; // else closed by its test
      }
      if (context) {
        for (const open of context.pages()) await open.close().catch(() => {});
        await context.setStorageState(storageState ?? empty);
      } else {
        const created = await newContext(browser, server, options);
        all.add(created);
        created.on('close', () => all.delete(created));
        context = created;
      }
      const used = context;
      try {
        onTestFinished(() => void ended.set(key, [...(ended.get(key) ?? []), used]));
      } catch {
        // outside a test (beforeAll): the page and its context stay until `close()`
      }
      return newPageOf(used, label);
    },
    async close() {
      for (const context of all) await context.close().catch(() => {});
    },
  };
}

/** `env`: extra server settings for this spec file (e.g. a short SMS resend interval). */
export async function startSuite(label: string, env: Record<string, string> = {}): Promise<Suite> {
  const server = await startServer(label, { env });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
  const pool = contextPool(browser, server, label);
  return {
    server,
    browser,
    page: (options) => pool.page(options),
    signedInPage: async (account, options) => showSignedIn(await pool.page({ ...options, storageState: await signedInState(server, account.name, account.password) })),
    async close() {
      await pool.close();
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
}

// ---------------------------------------------------------------- helpers

/** Saves a full-page screenshot to `e2e/artifacts/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  // Transitions (a drawer sliding in, a modal fading) are run to their end first: the picture shows the screen as it settles.
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** Signs in through the account form and waits for the shell (the login spec; elsewhere `signedInPage`). */
export async function login(page: Page, name: string, password: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByTestId('login-tab-account').click();
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('tabs-bar').waitFor();
}

/**
 * Signs in through the API and returns the browser storage the web app keeps after a sign-in: the token
 * in local storage (`p8-auth`, the auth store's persisted shape). The app loads the user and the menus
 * for it as on any reload. Saves each test the login screen's bundle and form; the form has its own spec.
 */
export async function signedInState(server: TestServer, name: string, password: string): Promise<NonNullable<BrowserContextOptions['storageState']>> {
  const res = await api<{ token: string }>(server, 'POST', '/auth/admin/name', { name, password });
  if (res.status !== 0) throw new Error(`sign-in of ${name} through the API failed: ${res.message}`);
  const auth = { state: { token: res.data.token, userInfo: null }, version: 1 };
  return { cookies: [], origins: [{ origin: server.baseURL, localStorage: [{ name: 'p8-auth', value: JSON.stringify(auth) }] }] };
}

/** The token the web app keeps in local storage (`p8-auth`), or '' when signed out. */
export async function storedToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('p8-auth');
    if (!raw) return '';
    try {
      return (JSON.parse(raw) as { state?: { token?: string } }).state?.token ?? '';
    } catch {
      return '';
    }
  });
}

export interface Envelope<T> {
  status: number;
  message: string;
  remark?: string;
  additional?: unknown;
  data: T;
}

/** Calls the API directly (setup steps that are not under test). */
export async function api<T>(server: TestServer, method: string, url: string, body?: unknown, token?: string): Promise<Envelope<T>> {
  const res = await fetch(server.baseURL + '/api' + url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Envelope<T>;
}

let phoneSeq = 0;
/** A mainland mobile number (the default phone pattern) that no other test uses. */
export function uniquePhone(): string {
  phoneSeq += 1;
  const tail = (Date.now() % 1e6) * 100 + (phoneSeq % 100);
  return `139${String(tail).padStart(8, '0').slice(-8)}`;
}

/** A valid account name (a letter, then 3–19 letters, digits or `_`) that no other test uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e3)}`.slice(0, 20);
}

/** A picture captcha with its answer (exposed by EXPOSE_CODES_FOR_TESTS). */
export async function imgCaptcha(server: TestServer): Promise<{ captchaId: string; code: string }> {
  const res = await api<{ captchaId: string; code?: string }>(server, 'GET', '/base/imgCaptcha');
  if (res.status !== 0 || !res.data.code) throw new Error(`no exposed picture captcha code: ${res.message}`);
  return { captchaId: res.data.captchaId, code: res.data.code };
}

/** Sends an SMS code through the API and returns it (exposed by EXPOSE_CODES_FOR_TESTS). */
export async function smsCode(server: TestServer, phone: string, type: 'login' | 'register' | 'forget'): Promise<string> {
  const { captchaId, code: captcha } = await imgCaptcha(server);
  const res = await api<{ code?: string }>(server, 'POST', type === 'login' ? '/base/phoneCaptcha' : '/base/phoneCaptcha/verify', { phone, type, captchaId, captcha });
  if (res.status !== 0 || !res.data.code) throw new Error(`SMS code for ${phone} (${type}) not sent: ${res.message}`);
  return res.data.code;
}

export interface Account {
  tenantName: string;
  name: string;
  password: string;
  phone: string;
}

/**
 * Registers a new tenant through the public API (picture captcha, SMS code, register), so that a test
 * has an account of its own: failed-login counters and password changes touch nobody else.
 */
export async function registerTenant(server: TestServer, prefix = 'e2e'): Promise<Account> {
  const account = { tenantName: `${prefix} tenant ${Date.now()}`, name: uniqueName(prefix), password: 'Passw0rd1', phone: uniquePhone() };
  const code = await smsCode(server, account.phone, 'register');
  const res = await api(server, 'POST', '/base/tenant/register', { ...account, code, confirmPassword: account.password });
  if (res.status !== 0) throw new Error(`register failed: ${res.message} ${JSON.stringify(res.additional ?? '')}`);
  return account;
}

/** Polls until `read()` passes `check` (vitest's expect does not wait like Playwright's). */
export async function waitUntil<T>(read: () => Promise<T> | T, check: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs * TIME_SCALE;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (check(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The current path (and query) of the page. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Every node of a tree (menus, departments, categories), parents before their children. */
export const flatten = <T extends { children?: T[] }>(nodes: T[]): T[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
