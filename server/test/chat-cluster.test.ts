import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceMessageRow, WsServerMessage } from '@p8/contract/service';
import { migrateDatabase, openDatabase, type Database } from '../src/db/connection.ts';
import { createTestDatabase, seedStaff, seedTenant, TEST_DB } from './harness.ts';
import { startServer, type Server } from './server-process.ts';

/*
 * The chat of a service order across two server processes on one PostgreSQL and one Redis: a screen on
 * one process receives, live, the messages sent through the other (Redis pub/sub), and a screen that was
 * away reads what it missed from whichever process it comes back to. The message center's unread count
 * (the header bell) goes the same way: a message stored or read through one process updates the
 * receiver's bells on both. Runs in the PostgreSQL stage
 * (TEST_DB=postgres with DATABASE_URL and REDIS_URL).
 */
const REDIS_URL = process.env.REDIS_URL;
const enabled = TEST_DB === 'postgres' && Boolean(process.env.DATABASE_URL) && Boolean(REDIS_URL);
// Channels and keys of this run start with its own prefix: parallel runs on one Redis never meet.
const PREFIX = `p8test:chat:${randomBytes(4).toString('hex')}:`;

interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

async function request<T>(server: Server, method: 'GET' | 'POST' | 'PUT', url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(server.url + url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (envelope.status !== 0) throw new Error(`${method} ${url}: ${envelope.message}`);
  return envelope.data;
}

/** A signed-in chat screen: a WebSocket on `server` with what it received. */
async function screen(server: Server, token: string) {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/ws`);
  const received: WsServerMessage[] = [];
  socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString()) as WsServerMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const waitFor = async (predicate: (m: WsServerMessage) => boolean, ms = 10_000) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
      const found = received.find(predicate);
      if (found) return found;
    }
    throw new Error(`not received within ${ms} ms; got ${JSON.stringify(received)}`);
  };
  const send = (m: unknown) => socket.send(JSON.stringify(m));
  send({ type: 'auth', token });
  await waitFor((m) => m.type === 'ready');
  const subscribe = async (orderId: number, afterId = 0) => {
    send({ type: 'subscribe', orderId, afterId });
    await waitFor((m) => m.type === 'subscribed' && m.orderId === orderId);
  };
  const messages = () => received.flatMap((m) => (m.type === 'message' ? [m.message] : []));
  return { socket, received, send, waitFor, subscribe, messages, close: () => socket.close() };
}

describe.skipIf(!enabled)('chat across two server processes sharing Redis', () => {
  let database: Database;
  let dropDatabase: () => Promise<void>;
  let servers: Server[] = [];

  beforeAll(async () => {
    const created = await createTestDatabase();
    dropDatabase = created.drop;
    database = await openDatabase({ databaseUrl: created.databaseUrl, poolSize: 2 });
    await migrateDatabase(database);
    const env = { REDIS_URL, REDIS_PREFIX: PREFIX };
    servers = await Promise.all([startServer(created.databaseUrl!, env), startServer(created.databaseUrl!, env)]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await dropDatabase?.();
  }, 60_000);

  it("delivers each process's messages live to the other's screens, and the missed ones on return", async () => {
    const t = await seedTenant(database, 'Chat');
    const other = await seedTenant(database, 'ChatOther');
    const signIn = async (server: Server, name: string) =>
      (await request<{ token: string }>(server, 'POST', '/api/auth/admin/name', '', { name, password: t.password })).token;
    const [token0, token1, otherToken] = [await signIn(servers[0], t.name), await signIn(servers[1], t.name), await signIn(servers[1], other.name)];
    const order = await request<{ id: number }>(servers[0], 'POST', '/api/admin/service/proxyOrder', token0, {
      serviceName: '空调清洗',
      customerName: '王先生',
      customerPhone: '13800001234',
      address: '上海市浦东新区张江路 1 号',
    });

    const first = await screen(servers[0], token0);
    const second = await screen(servers[1], token1);
    // Another tenant's screen on the same process as `second` sees nothing of it.
    const stranger = await screen(servers[1], otherToken);
    const otherOrder = await request<{ id: number }>(servers[1], 'POST', '/api/admin/service/proxyOrder', otherToken, {
      serviceName: '维修',
      customerName: '李女士',
      customerPhone: '13800004321',
      address: '杭州市',
    });
    await Promise.all([first.subscribe(order.id), second.subscribe(order.id), stranger.subscribe(otherOrder.id)]);

    const post = (server: Server, token: string, content: string) => request<ServiceMessageRow>(server, 'POST', '/api/admin/service/message', token, { orderId: order.id, content });
    const hello = await post(servers[0], token0, '您好，师傅几点到？');
    const reply = await post(servers[1], token1, '十点左右到。');
    for (const s of [first, second]) {
      await s.waitFor((m) => m.type === 'message' && m.message.id === reply.id);
      await s.waitFor((m) => m.type === 'message' && m.message.id === hello.id);
    }
    expect(second.messages().map((m) => m.content)).toEqual(['您好，师傅几点到？', '十点左右到。']);
    expect(first.messages().map((m) => m.content)).toEqual(['您好，师傅几点到？', '十点左右到。']);

    // The second screen goes away; what is said meanwhile comes first when it returns, to the other process.
    second.close();
    const missed = await post(servers[0], token0, '好的，我们在前台等。');
    const back = await screen(servers[0], token1);
    await back.subscribe(order.id, reply.id);
    await back.waitFor((m) => m.type === 'message' && m.message.id === missed.id);
    expect(back.messages().map((m) => m.content)).toEqual(['好的，我们在前台等。']);
    // …and it is live again: a message through the first process's peer reaches it.
    const late = await post(servers[1], token1, '收到。');
    await back.waitFor((m) => m.type === 'message' && m.message.id === late.id);

    expect(stranger.messages()).toEqual([]);
    for (const s of [first, back, stranger]) s.close();
  }, 120_000);

  it("updates the receiver's bell on every process when a message is stored or read through another", async () => {
    const t = await seedTenant(database, 'Bell');
    const staff = await seedStaff(database, t);
    const signIn = async (server: Server, name: string, password: string) =>
      (await request<{ token: string }>(server, 'POST', '/api/auth/admin/name', '', { name, password })).token;
    const adminToken = await signIn(servers[0], t.name, t.password);
    const [onFirst, onSecond] = [await signIn(servers[0], staff.name, staff.password), await signIn(servers[1], staff.name, staff.password)];
    const bells = [await screen(servers[0], onFirst), await screen(servers[1], onSecond)];
    const unread = (s: (typeof bells)[number]) => s.received.flatMap((m) => (m.type === 'unread' ? [m.count] : []));
    const shows = async (s: (typeof bells)[number], count: number) => s.waitFor(() => unread(s).at(-1) === count);
    for (const s of bells) s.send({ type: 'inbox' });
    for (const s of bells) await shows(s, 0);

    // Stored through the first process: the bell on the second shows it, and on the first.
    const { ids } = await request<{ ids: number[] }>(servers[0], 'POST', '/api/admin/office/message', adminToken, { receiverIds: [staff.adminId], title: '盘点通知' });
    for (const s of bells) await shows(s, 1);
    await request(servers[0], 'POST', '/api/admin/office/message', adminToken, { receiverIds: [staff.adminId], title: '周会' });
    for (const s of bells) await shows(s, 2);
    // Read through the second process: the first one's bell follows.
    await request(servers[1], 'PUT', '/api/admin/office/message/read', onSecond, { ids });
    await shows(bells[0], 1);
    await request(servers[0], 'PUT', '/api/admin/office/message/read/all', onFirst);
    await shows(bells[1], 0);
    for (const s of bells) s.close();
  }, 120_000);
});
