import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import type { WsServerMessage } from '@p8/contract/service';
import { HAPROXY, haproxyConfig, startCluster, type Cluster } from '../../scripts/cluster.mjs';
import { migrateDatabase, openDatabase, type Database } from '../src/db/connection.ts';
import { bill } from '../src/db/schema/index.ts';
import { billPayload, createBillRecords, type BillRecords } from './bill-fixtures.ts';
import { createTestDatabase, seedTenant, TEST_DB, uniquePhone, type TestTenant } from './harness.ts';
import { httpCaller, signInHttp } from './http-caller.ts';
import { freePort } from './server-process.ts';

/*
 * `npm run cluster` under load: HAProxy in front of three server processes on one PostgreSQL and Redis.
 * Six lanes keep a mixed load going through the balancer — list reads, bills saved, submitted and
 * audited, receipts, mall orders, chat messages — while one process is killed (SIGKILL) and started again,
 * then another stopped (SIGTERM) and started again. Chat screens are connected to each process directly.
 * Expected: every acknowledged bill exists exactly once, both verifies empty, every chat message reaches
 * every screen (live, or from the backlog after its process came back), no 500, the session signed in at
 * the start serves every request to the end, and errors only for requests in flight at the killed process.
 * PostgreSQL stage, with REDIS_URL and HAProxy (Debian's package) installed; the figures go to bench/README.md.
 */
const REDIS_URL = process.env.REDIS_URL;
const haproxyInstalled = spawnSync(HAPROXY, ['-v']).status === 0;
const enabled = TEST_DB === 'postgres' && Boolean(process.env.DATABASE_URL) && Boolean(REDIS_URL) && haproxyInstalled;
const PREFIX = `p8test:haproxy:${randomBytes(4).toString('hex')}:`;
const LANES = 6;
/** Load before the first kill, and after the last restart. */
const SETTLE_MS = 6_000;

type Kind = 'list' | 'bill' | 'receipt' | 'mall' | 'chat';
interface Sample {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 0 when the connection failed. */
  http: number;
  /** The envelope's status (undefined when the answer was no envelope). */
  status?: number;
  message?: string;
}

/** A chat screen on one process: its socket and every message id it has seen (live or from the backlog). */
async function screen(url: string, token: string, orderId: number, afterId = 0) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`);
  const seen = new Set<number>();
  let live = 0;
  let subscribed = false;
  socket.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as WsServerMessage;
    if (m.type === 'ready') socket.send(JSON.stringify({ type: 'subscribe', orderId, afterId }));
    if (m.type === 'subscribed') subscribed = true;
    if (m.type === 'message') {
      if (subscribed) live += 1;
      seen.add(m.message.id);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'auth', token }));
  for (const deadline = Date.now() + 10_000; !subscribed; await new Promise((r) => setTimeout(r, 20))) if (Date.now() > deadline) throw new Error('chat screen: not subscribed');
  return { socket, seen, live: () => live, closed: () => socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING };
}

const p95 = (values: number[]) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]);
};

describe.skipIf(!enabled)('HAProxy in front of three processes, one killed and one restarted under load', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let cluster: Cluster;
  let t: TestTenant;

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    database = await openDatabase({ databaseUrl: created.databaseUrl, poolSize: 2 });
    await migrateDatabase(database);
    t = await seedTenant(database, 'Ha');
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    cluster = await startCluster({ databaseUrl: created.databaseUrl!, redisUrl: REDIS_URL!, port: ports[0], ports: ports.slice(1), bundle: false, env: { REDIS_PREFIX: PREFIX } });
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await database?.close();
    await drop?.();
  }, 60_000);

  it('keeps every acknowledged write exactly once, the books and the chat whole, and fails only what the killed process held', async () => {
    const token = await signInHttp(cluster.url, t.name, t.password);
    const api = httpCaller(cluster.url, token, t.adminId);
    const records: BillRecords = await createBillRecords(api);
    const instock = billType('OtherInstock')!;
    const receipt = billType('Receipt')!;
    // The mall: a product with stock enough for the run, and a customer.
    const categoryId = (await api.post<{ id: number }>('/api/admin/mall/category', { name: 'HA', parentId: null })).body.data.id;
    const product = await api.post<{ skus: Array<{ id: number }> }>('/api/admin/mall/product', {
      categoryId,
      name: 'HA product',
      images: ['/api/base/file/1/202611/a.png'],
      specs: [{ name: '颜色', values: ['红'] }],
      skus: [{ specValues: ['红'], price: 10, marketPrice: 50, stock: 100000, code: 'HA1' }],
      onShelf: true,
    });
    expect(product.body.status, JSON.stringify(product.body)).toBe(0);
    const skuId = product.body.data.skus[0].id;
    const customerId = (await api.post<{ id: number }>('/api/admin/basic/customer', { name: `HA customer ${Date.now()}` })).body.data.id;
    const order = await api.post<{ id: number }>('/api/admin/service/proxyOrder', { serviceName: '空调清洗', customerName: '张三', customerPhone: uniquePhone(), address: '上海市浦东新区世纪大道100号', amount: 120 });
    expect(order.body.status, JSON.stringify(order.body)).toBe(0);
    const orderId = order.body.data.id;
    const screens = await Promise.all(cluster.nodes.map((node) => screen(node.url, token, orderId)));

    const samples: Sample[] = [];
    const savedBills = new Map<string, number>(); // marker → id, for every acknowledged save
    const sentMarkers: string[] = [];
    const messages: number[] = [];
    let serial = 0;
    const fire = async (kind: Kind, method: string, url: string, body?: unknown) => {
      const startedAt = performance.now();
      const sample: Sample = { kind, startedAt, endedAt: 0, http: 0 };
      let data: unknown;
      try {
        const res = await fetch(cluster.url + url, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        sample.http = res.status;
        const text = await res.text();
        try {
          const envelope = JSON.parse(text) as { status: number; message: string; data: unknown };
          sample.status = envelope.status;
          sample.message = envelope.message;
          data = envelope.data;
        } catch {
          // HAProxy's own error page
        }
      } catch {
        // the connection failed
      }
      sample.endedAt = performance.now();
      samples.push(sample);
      return sample.status === 0 ? data : undefined;
    };
    const operations: Array<() => Promise<unknown>> = [
      () => fire('list', 'GET', `${billApiPath(instock)}?pageSize=20`),
      async () => {
        const marker = `ha-${++serial}`;
        sentMarkers.push(marker);
        const saved = (await fire('bill', 'POST', billApiPath(instock), { ...billPayload(instock, records), remark: marker })) as { id: number } | undefined;
        if (!saved) return;
        savedBills.set(marker, saved.id);
        if (await fire('bill', 'POST', `${billApiPath(instock)}/submit`, { id: saved.id })) await fire('bill', 'POST', `${billApiPath(instock)}/audit`, { id: saved.id });
      },
      async () => {
        const saved = (await fire('receipt', 'POST', billApiPath(receipt), billPayload(receipt, records))) as { id: number } | undefined;
        if (saved && (await fire('receipt', 'POST', `${billApiPath(receipt)}/submit`, { id: saved.id }))) await fire('receipt', 'POST', `${billApiPath(receipt)}/audit`, { id: saved.id });
      },
      () => fire('mall', 'POST', '/api/admin/mall/proxyOrder', { customerId, consignee: '张三', phone: '13800000000', address: '上海市浦东新区世纪大道1号', items: [{ skuId, quantity: 1 }] }),
      async () => {
        const sent = (await fire('chat', 'POST', '/api/admin/service/message', { orderId, content: `ha ${++serial}` })) as { id: number } | undefined;
        if (sent) messages.push(sent.id);
      },
    ];

    let running = true;
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      for (let i = lane; running; i++) await operations[i % operations.length]();
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const loadStarted = performance.now();
    await pause(SETTLE_MS);
    // The second process dies at once, with whatever it was doing, and comes back.
    const killedAt = performance.now();
    await cluster.nodes[1].kill('SIGKILL');
    // Until the kernel has closed its socket, the dying process still accepts connections that nobody answers.
    const deadAt = performance.now();
    await cluster.nodes[1].start();
    // Its screen comes back to it at once and asks for what it missed since the last message it had (one page
    // of 200 at most: a screen away longer would ask again).
    const screenBack = await screen(cluster.nodes[1].url, token, orderId, Math.max(0, ...screens[1].seen));
    // The third is stopped the orderly way (finishing its requests) and comes back.
    const termAt = performance.now();
    await cluster.nodes[2].kill('SIGTERM');
    await cluster.nodes[2].start();
    const screenBack2 = await screen(cluster.nodes[2].url, token, orderId, Math.max(0, ...screens[2].seen));
    const disturbedUntil = performance.now();
    await pause(SETTLE_MS);
    running = false;
    await Promise.all(lanes);
    const loadEnded = performance.now();

    // Errors: only requests in flight at the killed process when it died; nothing else, and never a 500.
    const failed = samples.filter((s) => s.status === undefined || s.http >= 500);
    const errorKinds: Record<string, number> = {};
    for (const s of failed) {
      const key = s.http ? `HTTP ${s.http}` : 'connection';
      errorKinds[key] = (errorKinds[key] ?? 0) + 1;
    }
    const refused = samples.filter((s) => s.status !== undefined && s.status !== 0);
    const phase = (s: Sample) => (s.endedAt < killedAt ? 'before' : s.startedAt > disturbedUntil ? 'after' : 'during');
    const figures = {
      requests: samples.length,
      seconds: Math.round((loadEnded - loadStarted) / 1000),
      errors: errorKinds,
      refusals: refused.reduce<Record<string, number>>((counts, s) => ({ ...counts, [s.message!]: (counts[s.message!] ?? 0) + 1 }), {}),
      p95ms: Object.fromEntries(['before', 'during', 'after'].map((p) => [p, p95(samples.filter((s) => phase(s) === p).map((s) => s.endedAt - s.startedAt))])),
      byKind: Object.fromEntries((['list', 'bill', 'receipt', 'mall', 'chat'] as const).map((k) => [k, samples.filter((s) => s.kind === k).length])),
      killAt: Math.round((killedAt - loadStarted) / 1000),
      deadAfterMs: Math.round(deadAt - killedAt),
      termAt: Math.round((termAt - loadStarted) / 1000),
    };
    console.log(`cluster-haproxy figures: ${JSON.stringify(figures)}`);
    // The balancer's lines of requests that did not end normally (termination state other than ----).
    const abnormal = cluster.haproxyOutput().split('\n').filter((line) => line.includes(' app/') && !line.includes(' ---- '));
    if (abnormal.length) console.log(`haproxy, abnormal endings:\n${abnormal.slice(0, 30).join('\n')}`);
    expect(samples.some((s) => s.http === 500)).toBe(false);
    expect(failed.filter((s) => !(s.startedAt <= deadAt && s.endedAt >= killedAt)).map((s) => `${s.kind} ${s.http} at ${Math.round(s.startedAt - loadStarted)}ms`)).toEqual([]);
    // The session lasted: nothing was refused as signed out, and nothing else was refused either.
    expect(figures.refusals).toEqual({});
    for (const kind of ['list', 'bill', 'receipt', 'mall', 'chat'] as const) expect(figures.byKind[kind]).toBeGreaterThan(5);

    // Every acknowledged bill exactly once; one whose answer was lost at most once.
    const found = await database.withTenant(t.tenantId, (tx) =>
      tx.select({ id: bill.id, remark: bill.remark }).from(bill).where(and(eq(bill.tenantId, t.tenantId), inArray(bill.remark, sentMarkers))),
    );
    const byMarker = new Map<string, number[]>();
    for (const row of found) byMarker.set(row.remark, [...(byMarker.get(row.remark) ?? []), row.id]);
    for (const [marker, id] of savedBills) expect(byMarker.get(marker), marker).toEqual([id]);
    expect([...byMarker.values()].filter((ids) => ids.length > 1)).toEqual([]);

    // The books agree, asked at each process.
    for (const node of cluster.nodes) {
      const at = httpCaller(node.url, token, t.adminId);
      expect((await at.post('/api/admin/stock/verify')).body).toMatchObject({ status: 0, data: [] });
      expect((await at.post('/api/admin/finance/verify')).body).toMatchObject({ status: 0, data: [] });
      expect((await at.get('/api/admin/current/detail')).body.status).toBe(0);
    }

    // Every acknowledged chat message reached every screen: the first process's all along (live, from
    // whichever process took the message), the others' live or, once back, from the backlog.
    const waitSeen = async (...views: Array<{ seen: Set<number> }>) => {
      const missing = () => messages.filter((id) => !views.some((v) => v.seen.has(id)));
      for (const deadline = Date.now() + 10_000; missing().length && Date.now() < deadline; ) await pause(50);
      return missing();
    };
    expect(messages.length).toBeGreaterThan(5);
    expect(await waitSeen(screens[0]), 'screen at app1 (never stopped)').toEqual([]);
    expect(screens[0].live()).toBeGreaterThanOrEqual(messages.length);
    expect(screens[1].closed()).toBe(true);
    expect(await waitSeen(screens[1], screenBack), 'screens at app2 (killed, back)').toEqual([]);
    expect(screens[2].closed()).toBe(true);
    expect(await waitSeen(screens[2], screenBack2), 'screens at app3 (stopped, back)').toEqual([]);
    for (const s of [...screens, screenBack, screenBack2]) s.socket.close();
  }, 150_000);
});

describe('the containers\' balancer', () => {
  it('runs with the settings of the cluster script (deploy/haproxy.cfg beside scripts/cluster.mjs)', () => {
    // Every setting line but the bind address, the servers and the compose file's DNS resolver.
    const settings = (config: string) =>
      config
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#') && !/^(bind|server|resolvers|nameserver|hold)\b/.test(line));
    const compose = readFileSync(path.resolve(import.meta.dirname, '../../deploy/haproxy.cfg'), 'utf8');
    expect(settings(compose)).toEqual(settings(haproxyConfig({ port: 8080, servers: ['a:1', 'b:2'] })));
  });
});
