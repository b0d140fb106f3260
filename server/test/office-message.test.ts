import type { WebSocket } from 'ws';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notice } from '@p8/contract/notices';
import type { MessageRow } from '@p8/contract/office';
import type { WsServerMessage } from '@p8/contract/service';
import { sendNotice, type NoticeOptions } from '../src/core/notices.ts';
import { withServiceContext } from '../src/core/service-context.ts';
import { message } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, setAdmin, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { grant } from './office-fixtures.ts';

const BASE = '/api/admin/office/message';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenAdmin: string;
let tokenB: string;
/** Staff of A without any button code. */
let plain: { adminId: number; token: string };
/** Staff of A with system_message_send and system_message_delete. */
let sender: { adminId: number; token: string };

const countMessages = (tenantId: number) => ctx.database.withTenant(tenantId, (tx) => tx.select().from(message).where(eq(message.tenantId, tenantId)));

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'MsgA');
  b = await seedTenant(ctx.database, 'MsgB');
  tokenAdmin = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
  const s1 = await seedStaff(ctx.database, a);
  await setAdmin(ctx.database, a.tenantId, s1.adminId, { realName: 'Plain Zhang' });
  plain = { adminId: s1.adminId, token: await login(ctx.app, s1.name, s1.password) };
  const s2 = await seedStaff(ctx.database, a);
  await grant(ctx, a, s2.roleId, ['system_message_send', 'system_message_delete']);
  sender = { adminId: s2.adminId, token: await login(ctx.app, s2.name, s2.password) };
});
afterAll(() => ctx.close());

const send = (token: string, body: unknown) => call<{ ids: number[] }>(ctx.app, 'POST', BASE, { token, body });

describe(`messages (${TEST_DB})`, () => {
  it('sends one message per receiver, shown in their inbox and the sender’s outbox', async () => {
    const res = await send(tokenAdmin, { receiverIds: [plain.adminId, sender.adminId], title: 'Stock take', content: 'Friday 3pm' });
    expect(res.body.status).toBe(0);
    expect(res.body.data.ids).toHaveLength(2);

    const inbox = await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?box=inbox`, { token: plain.token });
    expect(inbox.body.data[0]).toMatchObject({ senderId: a.adminId, receiverId: plain.adminId, receiverName: 'Plain Zhang', title: 'Stock take', content: 'Friday 3pm', isRead: false, readAt: null });
    expect(inbox.body.pagination).toMatchObject({ current: 1, total: 1 });
    const outbox = await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?box=outbox&title=stock`, { token: tokenAdmin });
    expect(outbox.body.data.map((m) => m.receiverId).sort()).toEqual([plain.adminId, sender.adminId].sort());
    // The default box is the inbox: the sender received nothing.
    expect((await call<MessageRow[]>(ctx.app, 'GET', BASE, { token: tokenAdmin })).body.data).toEqual([]);
  });

  it('refuses a message to oneself (MessageSenderReceiverSame) and sends nothing', async () => {
    const before = (await countMessages(a.tenantId)).length;
    const res = await send(tokenAdmin, { receiverIds: [plain.adminId, a.adminId], title: 'Hi' });
    expect(res.httpStatus).toBe(400);
    expect(res.body).toMatchObject({ status: 40001, message: 'MessageSenderReceiverSame' });
    expect((await countMessages(a.tenantId)).length).toBe(before);
  });

  it('sends only to staff of the tenant, and needs a receiver and a title', async () => {
    const before = (await countMessages(a.tenantId)).length;
    const foreign = await send(tokenAdmin, { receiverIds: [plain.adminId, b.adminId], title: 'Hi' });
    expect(foreign.body).toMatchObject({ message: 'AdminNotExist', additional: String(b.adminId) });
    expect((await send(tokenAdmin, { receiverIds: [], title: 'Hi' })).body).toMatchObject({ message: 'PleaseSelectStaff', additional: 'receiverIds' });
    expect((await send(tokenAdmin, { receiverIds: [plain.adminId], title: '  ' })).body).toMatchObject({ message: 'PleaseInputTitle', additional: 'title' });
    expect((await countMessages(a.tenantId)).length).toBe(before);
    expect((await countMessages(b.tenantId)).length).toBe(0);
  });

  it('needs system_message_send to send (40300, nothing sent)', async () => {
    const before = (await countMessages(a.tenantId)).length;
    const res = await send(plain.token, { receiverIds: [a.adminId], title: 'Hi' });
    expect(res.httpStatus).toBe(403);
    expect(res.body).toMatchObject({ status: 40300, message: 'Forbidden', additional: 'system_message_send' });
    expect((await countMessages(a.tenantId)).length).toBe(before);
    expect((await send(sender.token, { receiverIds: [a.adminId], title: 'From staff' })).body.status).toBe(0);
  });

  it('counts unread messages and lets only the receiver mark them read', async () => {
    const { body } = await send(tokenAdmin, { receiverIds: [plain.adminId], title: 'Unread one' });
    const id = body.data.ids[0];
    const unread = async () => (await call<{ count: number }>(ctx.app, 'GET', `${BASE}/unread/count`, { token: plain.token })).body.data.count;
    const before = await unread();
    expect(before).toBeGreaterThanOrEqual(1);
    const bySender = await call(ctx.app, 'PUT', `${BASE}/read`, { token: tokenAdmin, body: { ids: [id] } });
    expect(bySender.body).toMatchObject({ status: 40300, message: 'Forbidden' });
    expect(await unread()).toBe(before);

    const read = await call<{ updated: number }>(ctx.app, 'PUT', `${BASE}/read`, { token: plain.token, body: { ids: [id] } });
    expect(read.body.data.updated).toBe(1);
    expect(await unread()).toBe(before - 1);
    const readList = await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?isRead=true`, { token: plain.token });
    expect(readList.body.data.map((m) => m.id)).toContain(id);
    expect(readList.body.data.every((m) => m.isRead && m.readAt)).toBe(true);
    const unreadList = await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?isRead=false`, { token: plain.token });
    expect(unreadList.body.data.map((m) => m.id)).not.toContain(id);

    await call(ctx.app, 'PUT', `${BASE}/read/all`, { token: plain.token });
    expect(await unread()).toBe(0);
    expect((await call(ctx.app, 'GET', `${BASE}?box=elsewhere`, { token: plain.token })).body).toMatchObject({ message: 'BadRequest', additional: 'box' });
  });

  it('lets only the sender delete, and needs system_message_delete', async () => {
    const { body } = await send(tokenAdmin, { receiverIds: [sender.adminId, plain.adminId], title: 'To delete' });
    const [toSender, toPlain] = body.data.ids;
    const byReceiver = await call(ctx.app, 'DELETE', BASE, { token: sender.token, body: { ids: [toSender] } });
    expect(byReceiver.body).toMatchObject({ status: 40001, message: 'OnlyMessageSenderCanDelete' });
    const withoutCode = await call(ctx.app, 'DELETE', BASE, { token: plain.token, body: { ids: [toPlain] } });
    expect(withoutCode.body).toMatchObject({ status: 40300, additional: 'system_message_delete' });
    const stillThere = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.title, 'To delete'))));
    expect(stillThere).toHaveLength(2);

    const bySender = await call(ctx.app, 'DELETE', BASE, { token: tokenAdmin, body: { ids: [toSender, toPlain] } });
    expect(bySender.body.status).toBe(0);
    expect((await call(ctx.app, 'GET', `${BASE}/${toPlain}`, { token: plain.token })).body.message).toBe('DataNotExist');
    // A mixed batch (one of mine, one not) deletes nothing.
    const mine = (await send(sender.token, { receiverIds: [plain.adminId], title: 'mine' })).body.data.ids[0];
    const theirs = (await send(tokenAdmin, { receiverIds: [sender.adminId], title: 'theirs' })).body.data.ids[0];
    expect((await call(ctx.app, 'DELETE', BASE, { token: sender.token, body: { ids: [mine, theirs] } })).body.message).toBe('OnlyMessageSenderCanDelete');
    expect((await call(ctx.app, 'GET', `${BASE}/${mine}`, { token: sender.token })).body.status).toBe(0);
  });

  it('shows a message by id to its sender and receiver only', async () => {
    const id = (await send(tokenAdmin, { receiverIds: [sender.adminId], title: 'Private' })).body.data.ids[0];
    expect((await call<MessageRow>(ctx.app, 'GET', `${BASE}/${id}`, { token: sender.token })).body.data.title).toBe('Private');
    expect((await call<MessageRow>(ctx.app, 'GET', `${BASE}/${id}`, { token: tokenAdmin })).body.data.title).toBe('Private');
    expect((await call(ctx.app, 'GET', `${BASE}/${id}`, { token: plain.token })).body.message).toBe('DataNotExist');
  });

  it("keeps tenant A's messages from tenant B, by list and by id", async () => {
    const id = (await send(tokenAdmin, { receiverIds: [plain.adminId], title: 'Tenant A secret' })).body.data.ids[0];
    expect((await call(ctx.app, 'GET', `${BASE}/${id}`, { token: tokenB })).body).toMatchObject({ status: 40001, message: 'DataNotExist' });
    for (const box of ['inbox', 'outbox']) {
      const list = await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?box=${box}`, { token: tokenB });
      expect(JSON.stringify(list.body)).not.toContain('Tenant A secret');
    }
    expect((await call(ctx.app, 'PUT', `${BASE}/read`, { token: tokenB, body: { ids: [id] } })).body.message).toBe('DataNotExist');
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenB, body: { ids: [id] } })).body.message).toBe('DataNotExist');
    expect((await call(ctx.app, 'GET', `${BASE}/${id}`, { token: plain.token })).body.status).toBe(0);
  });

  it('stores the content sanitised: scripts, handlers and javascript: links never reach the database', async () => {
    const content = '<h2>Plan</h2><p onclick="steal()">Friday <strong>3pm</strong></p><script>fetch("/api")</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a>';
    const res = await send(tokenAdmin, { receiverIds: [plain.adminId], title: 'Sanitised', content });
    expect(res.body.status).toBe(0);
    const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.id, res.body.data.ids[0]))));
    expect(row.content).toBe('<h2>Plan</h2><p>Friday <strong>3pm</strong></p><img src="x" /><a>x</a>');
  });
});

const notice: Notice = { key: 'billReview', params: { typeZh: '采购订单', typeEn: 'Purchase order', billCode: 'CG-1', sender: 'Admin' } };

/** Sends `notice` acting as `adminId` of tenant A, in one unit of work; answers who got it. */
const notify = (adminId: number, receivers: number[], options?: NoticeOptions) =>
  withServiceContext(
    ctx.database,
    { tenantId: a.tenantId, account: { tenantId: a.tenantId, adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access },
    (c) => sendNotice(c, receivers, notice, options),
  );

const inboxIds = async (token: string) => (await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?box=inbox&pageSize=100`, { token })).body.data.map((m) => m.id);
const unreadOf = async (token: string) => (await call<{ count: number }>(ctx.app, 'GET', `${BASE}/unread/count`, { token })).body.data.count;

/** A socket on the in-process app, signed in and subscribed to its unread count. */
async function bell(token: string) {
  const socket: WebSocket = await ctx.app.injectWS('/api/ws');
  const counts: number[] = [];
  socket.on('message', (data) => {
    const m = JSON.parse(data.toString()) as WsServerMessage;
    if (m.type === 'unread') counts.push(m.count);
  });
  socket.send(JSON.stringify({ type: 'auth', token }));
  socket.send(JSON.stringify({ type: 'inbox' }));
  /** Waits until the last count received is `count`. */
  const shows = async (count: number, ms = 5000) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) if (counts.at(-1) === count) return;
    throw new Error(`the bell shows ${JSON.stringify(counts)}, not ${count}`);
  };
  return { counts, shows, close: () => socket.close() };
}

describe(`message center (${TEST_DB})`, () => {
  it('lets the receiver hide a message: gone from their inbox and count, still in the sender’s sent view', async () => {
    const id = (await send(tokenAdmin, { receiverIds: [plain.adminId], title: 'To hide' })).body.data.ids[0];
    const before = await unreadOf(plain.token);
    // The sender cannot hide it (not theirs to hide), a stranger neither, another tenant does not even see it.
    expect((await call(ctx.app, 'PUT', `${BASE}/hide`, { token: tokenAdmin, body: { ids: [id] } })).body).toMatchObject({ status: 40001, message: 'OnlyMessageReceiverCanHide', additional: String(id) });
    expect((await call(ctx.app, 'PUT', `${BASE}/hide`, { token: sender.token, body: { ids: [id] } })).body.message).toBe('OnlyMessageReceiverCanHide');
    expect((await call(ctx.app, 'PUT', `${BASE}/hide`, { token: tokenB, body: { ids: [id] } })).body.message).toBe('DataNotExist');
    expect(await inboxIds(plain.token)).toContain(id);

    const hidden = await call<{ updated: number }>(ctx.app, 'PUT', `${BASE}/hide`, { token: plain.token, body: { ids: [id] } });
    expect(hidden.body.data.updated).toBe(1);
    expect(await inboxIds(plain.token)).not.toContain(id);
    expect(await unreadOf(plain.token)).toBe(before - 1);
    expect((await call(ctx.app, 'GET', `${BASE}/${id}`, { token: plain.token })).body.message).toBe('DataNotExist');
    // Hidden is gone for the receiver: reading or hiding it again is refused as missing.
    expect((await call(ctx.app, 'PUT', `${BASE}/read`, { token: plain.token, body: { ids: [id] } })).body.message).toBe('DataNotExist');
    // The sender still has it, unread (the receiver never read it).
    const sent = await call<MessageRow>(ctx.app, 'GET', `${BASE}/${id}`, { token: tokenAdmin });
    expect(sent.body.data).toMatchObject({ id, title: 'To hide', isRead: false });
    const outbox = await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?box=outbox&title=To hide`, { token: tokenAdmin });
    expect(outbox.body.data.map((m) => m.id)).toEqual([id]);
    // Mark all read leaves the hidden one alone.
    await call(ctx.app, 'PUT', `${BASE}/read/all`, { token: plain.token });
    const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.id, id))));
    expect(row.readAt).toBeNull();
    expect(row.hiddenAt).not.toBeNull();
  });

  it('keeps notices: their sender may not delete them (NoticeProhibitDelete), their receiver hides them', async () => {
    const [receiver] = await notify(sender.adminId, [plain.adminId]);
    expect(receiver).toBe(plain.adminId);
    const [stored] = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.senderId, sender.adminId), eq(message.receiverId, plain.adminId), eq(message.title, '待审核：采购订单 CG-1'))),
    );
    const del = await call(ctx.app, 'DELETE', BASE, { token: sender.token, body: { ids: [stored.id] } });
    expect(del.body).toMatchObject({ status: 40001, message: 'NoticeProhibitDelete', additional: String(stored.id) });
    // The receiver reads it in their language, marked as a notice.
    const en = await ctx.app.inject({ method: 'GET', url: `${BASE}/${stored.id}`, headers: { authorization: `Bearer ${plain.token}`, 'accept-language': 'en' } });
    expect((en.json() as { data: MessageRow }).data).toMatchObject({ title: 'To review: Purchase order CG-1', isNotice: true, senderId: sender.adminId });
    expect((await call(ctx.app, 'PUT', `${BASE}/hide`, { token: plain.token, body: { ids: [stored.id] } })).body.status).toBe(0);
    expect(await inboxIds(plain.token)).not.toContain(stored.id);
  });

  it('sends a notice from the system: no sender, the acting account told too, once per key', async () => {
    // From the one acting: never to themselves.
    expect(await notify(a.adminId, [a.adminId, plain.adminId])).toEqual([plain.adminId]);
    // From the system: nobody acts, everyone listed is told.
    const told = await notify(a.adminId, [a.adminId, plain.adminId], { from: 'system', onceKey: 'test:once' });
    expect(told.sort()).toEqual([a.adminId, plain.adminId].sort());
    // The same key again: nothing more (a job that runs twice, two processes at once).
    expect(await notify(a.adminId, [a.adminId, plain.adminId], { from: 'system', onceKey: 'test:once' })).toEqual([]);
    const [parallelA, parallelB] = await Promise.all([notify(a.adminId, [plain.adminId], { from: 'system', onceKey: 'test:twice' }), notify(a.adminId, [plain.adminId], { from: 'system', onceKey: 'test:twice' })]);
    expect(parallelA.length + parallelB.length).toBe(1);
    const rows = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, a.tenantId), eq(message.onceKey, 'test:once'))));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.senderId === null)).toBe(true);
    const zh = await call<MessageRow>(ctx.app, 'GET', `${BASE}/${rows.find((r) => r.receiverId === a.adminId)!.id}`, { token: tokenAdmin });
    expect(zh.body.data).toMatchObject({ senderId: null, senderName: '系统', isNotice: true });
    const en = await ctx.app.inject({ method: 'GET', url: `${BASE}?box=inbox&pageSize=100`, headers: { authorization: `Bearer ${tokenAdmin}`, 'accept-language': 'en' } });
    expect((en.json() as { data: MessageRow[] }).data.find((m) => m.id === rows.find((r) => r.receiverId === a.adminId)!.id)).toMatchObject({ senderName: 'System' });
    // Nobody sent it: nobody may delete it, the receiver hides it.
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenAdmin, body: { ids: rows.map((r) => r.id) } })).body.message).toBe('OnlyMessageSenderCanDelete');
  });

  it('pushes the unread count live to every open screen of the receiver: stored, read, hidden, deleted', async () => {
    await call(ctx.app, 'PUT', `${BASE}/read/all`, { token: plain.token });
    const first = await bell(plain.token);
    const second = await bell(plain.token);
    const stranger = await bell(tokenB);
    await first.shows(0);
    await second.shows(0);
    // A message from a colleague, then a notice (any sender): both screens follow.
    const id = (await send(tokenAdmin, { receiverIds: [plain.adminId], title: 'Live one' })).body.data.ids[0];
    await first.shows(1);
    await second.shows(1);
    await notify(sender.adminId, [plain.adminId]);
    await first.shows(2);
    await notify(a.adminId, [plain.adminId], { from: 'system' });
    await second.shows(3);
    // Read on one screen: the other follows.
    expect((await call(ctx.app, 'PUT', `${BASE}/read`, { token: plain.token, body: { ids: [id] } })).body.status).toBe(0);
    await second.shows(2);
    // The sender deletes an unread message: gone from the count.
    const gone = (await send(tokenAdmin, { receiverIds: [plain.adminId], title: 'Retracted' })).body.data.ids[0];
    await first.shows(3);
    expect((await call(ctx.app, 'DELETE', BASE, { token: tokenAdmin, body: { ids: [gone] } })).body.status).toBe(0);
    await first.shows(2);
    const hideOne = (await call<MessageRow[]>(ctx.app, 'GET', `${BASE}?box=inbox&isRead=false`, { token: plain.token })).body.data[0].id;
    expect((await call(ctx.app, 'PUT', `${BASE}/hide`, { token: plain.token, body: { ids: [hideOne] } })).body.status).toBe(0);
    await second.shows(1);
    expect((await call(ctx.app, 'PUT', `${BASE}/read/all`, { token: plain.token })).body.status).toBe(0);
    await first.shows(0);
    await second.shows(0);
    // A refused change tells nobody; another tenant's screen hears nothing of tenant A.
    const before = first.counts.length;
    expect((await send(tokenAdmin, { receiverIds: [plain.adminId, a.adminId], title: 'Refused' })).body.message).toBe('MessageSenderReceiverSame');
    await new Promise((r) => setTimeout(r, 200));
    expect(first.counts.length).toBe(before);
    expect(stranger.counts.every((c) => c === stranger.counts[0])).toBe(true);
    for (const s of [first, second, stranger]) s.close();
  });

  it('refuses the unread count to a socket not signed in', async () => {
    const socket: WebSocket = await ctx.app.injectWS('/api/ws');
    const received: WsServerMessage[] = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString()) as WsServerMessage));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'inbox' }));
    expect(await closed).toBe(4401);
    expect(received).toEqual([{ type: 'error', message: 'Unauthorized' }]);
  });
});
