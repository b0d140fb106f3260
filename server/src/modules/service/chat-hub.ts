import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyWebsocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { wsClientMessageSchema, type ServiceMessageRow, type WsClientMessage, type WsServerMessage } from '@p8/contract/service';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import type { AuthContext } from '../../core/auth.ts';
import { BizError } from '../../core/errors.ts';
import { withServiceContext, type Caller } from '../../core/service-context.ts';
import { unreadCount } from '../../core/notices.ts';
import { listOrderMessages } from './messages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live delivery of service-order chat messages (and the message center's unread counts) to every server process's open screens. */
    chat: ChatHub;
  }
}

export interface ChatHub {
  /** Delivers a committed message to the screens subscribed to its order, on every server process. */
  publish(tenantId: number, message: ServiceMessageRow): Promise<void>;
}

/*
 * The live channel, WebSocket /api/ws. A browser cannot set headers on a WebSocket, so the client signs in
 * with its first message `{ type: 'auth', token }` (an `Authorization: Bearer` header on the upgrade works
 * too), then subscribes to orders, each with the id of the last message it has (`afterId`): what it missed
 * is sent first, then every new message live. A message is published after its transaction commits, through
 * the shared state's pub/sub — Redis with REDIS_URL (every process delivers every process's messages),
 * in-process otherwise — and each process hands it to its own sockets subscribed to that tenant and order.
 * A socket sees its own tenant's orders only: the subscription is checked under the tenant's RLS and the
 * delivery keyed by tenant.
 *
 * The same socket carries the message center's unread count (the header bell): after `{ type: 'inbox' }`
 * the client gets `{ type: 'unread', count }` at once and again whenever a message of theirs is stored,
 * read, hidden or deleted. The change is announced after its commit (core/notices.ts `announceUnread`) as
 * the tenant and account ids only, through the same pub/sub; each process that holds sockets of those
 * accounts reads their count under the tenant's RLS (one read at a time per account, a change meanwhile
 * read once more after it) and sends it to them. After a lost link to Redis every held count is read again.
 */

const CHANNEL = 'service-chat';
const INBOX_CHANNEL = 'inbox-unread';
/** Close codes: 4401 not signed in (or the session ended), 4400 a broken protocol. */
const CLOSE_UNAUTHORIZED = 4401;
const AUTH_TIMEOUT_MS = 10_000;
/** How often an open socket's session is checked again (ended, expired, account locked). */
const SESSION_CHECK_MS = 60_000;
const MAX_SUBSCRIPTIONS = 50;

interface Client {
  socket: WebSocket;
  auth?: AuthContext;
  orders: Set<number>;
  /** Subscribed to its account's unread count. */
  inbox: boolean;
}

const keyOf = (tenantId: number, orderId: number) => `${tenantId}:${orderId}`;
const accountKeyOf = (tenantId: number, adminId: number) => `${tenantId}:${adminId}`;

function send(socket: WebSocket, message: WsServerMessage) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

export const chatPlugin = fp(async (app: FastifyInstance, opts: { database: Database; config: Config }) => {
  const { database, config } = opts;
  await app.register(fastifyWebsocket, { options: { maxPayload: 16 * 1024 } });

  const subscribers = new Map<string, Set<Client>>();
  const clients = new Set<Client>();

  await app.shared.subscribe(CHANNEL, (raw) => {
    let parsed: { tenantId: number; message: ServiceMessageRow };
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    for (const client of subscribers.get(keyOf(parsed.tenantId, parsed.message.orderId)) ?? []) {
      // Keyed by tenant already; checked again so that no other tenant's socket can ever receive it.
      if (client.auth?.tenantId === parsed.tenantId) send(client.socket, { type: 'message', message: parsed.message });
    }
  });

  // The unread counts: the sockets subscribed per account, and the reads under way per account.
  const inboxes = new Map<string, Set<Client>>();
  const reading = new Map<string, { again: boolean }>();
  const refreshUnread = (tenantId: number, adminId: number) => {
    const key = accountKeyOf(tenantId, adminId);
    const under = reading.get(key);
    if (under) {
      // A read is under way and may have missed this change: it reads once more when done.
      under.again = true;
      return;
    }
    const run = { again: false };
    reading.set(key, run);
    void (async () => {
      try {
        do {
          run.again = false;
          const [holder] = inboxes.get(key) ?? [];
          if (!holder?.auth) return;
          const { count } = await withServiceContext(database, callerOf(holder.auth, app.log, ''), (ctx) => unreadCount(ctx));
          for (const client of inboxes.get(key) ?? []) {
            if (client.auth?.tenantId === tenantId && client.auth.adminId === adminId) send(client.socket, { type: 'unread', count });
          }
        } while (run.again);
      } catch (error) {
        app.log.warn({ err: error, tenantId, adminId }, 'unread count not read');
      } finally {
        reading.delete(key);
      }
    })();
  };
  await app.shared.subscribe(INBOX_CHANNEL, (raw) => {
    let parsed: { tenantId: number; adminIds: number[] };
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    if (!Number.isSafeInteger(parsed.tenantId) || !Array.isArray(parsed.adminIds)) return;
    for (const adminId of parsed.adminIds) if (inboxes.has(accountKeyOf(parsed.tenantId, adminId))) refreshUnread(parsed.tenantId, adminId);
  });
  app.registries.inbox.listen((tenantId, adminIds) => app.shared.publish(INBOX_CHANNEL, JSON.stringify({ tenantId, adminIds })));

  // Messages published while this process's link to Redis was down are lost to it: its screens read them.
  app.shared.onResync(() => {
    for (const client of clients) if (client.auth) send(client.socket, { type: 'resync' });
    for (const key of inboxes.keys()) {
      const [tenantId, adminId] = key.split(':').map(Number);
      refreshUnread(tenantId, adminId);
    }
  });

  app.decorate('chat', {
    publish: (tenantId, message) => app.shared.publish(CHANNEL, JSON.stringify({ tenantId, message })),
  } satisfies ChatHub);

  const leaveInbox = (client: Client) => {
    if (!client.inbox || !client.auth) return;
    client.inbox = false;
    const key = accountKeyOf(client.auth.tenantId, client.auth.adminId);
    const set = inboxes.get(key);
    set?.delete(client);
    if (set && !set.size) inboxes.delete(key);
  };

  const unsubscribe = (client: Client, orderId: number) => {
    client.orders.delete(orderId);
    if (!client.auth) return;
    const key = keyOf(client.auth.tenantId, orderId);
    const set = subscribers.get(key);
    set?.delete(client);
    if (set && !set.size) subscribers.delete(key);
  };

  function callerOf(auth: AuthContext, log: FastifyBaseLogger, ip: string): Caller {
    return { tenantId: auth.tenantId, account: auth, config, registries: app.registries, access: app.access, log, ip };
  }

  async function handle(client: Client, request: FastifyRequest, message: WsClientMessage) {
    switch (message.type) {
      case 'ping':
        send(client.socket, { type: 'pong' });
        return;
      case 'auth': {
        if (client.auth) return;
        client.auth = await app.access.resolve(message.token);
        send(client.socket, { type: 'ready', adminId: client.auth.adminId });
        return;
      }
      case 'subscribe': {
        if (!client.auth) throw new BizError('Unauthorized', { status: 40100 });
        const { orderId, afterId } = message;
        if (!client.orders.has(orderId) && client.orders.size >= MAX_SUBSCRIPTIONS) throw new BizError('TooManyRequests');
        // Subscribed before the backlog is read, so nothing committed in between is lost (the client
        // drops what it already has by id).
        client.orders.add(orderId);
        const key = keyOf(client.auth.tenantId, orderId);
        subscribers.set(key, (subscribers.get(key) ?? new Set()).add(client));
        try {
          const backlog = await withServiceContext(database, callerOf(client.auth, request.log, request.ip), (ctx) => listOrderMessages(ctx, { orderId, afterId: afterId ?? 0 }));
          send(client.socket, { type: 'subscribed', orderId });
          if (afterId !== undefined) for (const m of backlog) send(client.socket, { type: 'message', message: m });
        } catch (error) {
          unsubscribe(client, orderId);
          if (error instanceof BizError) {
            send(client.socket, { type: 'error', message: error.key, orderId });
            return;
          }
          throw error;
        }
        return;
      }
      case 'unsubscribe':
        unsubscribe(client, message.orderId);
        return;
      case 'inbox': {
        if (!client.auth) throw new BizError('Unauthorized', { status: 40100 });
        // Registered before the count is read, so a change committed in between is sent after it.
        if (!client.inbox) {
          client.inbox = true;
          const key = accountKeyOf(client.auth.tenantId, client.auth.adminId);
          inboxes.set(key, (inboxes.get(key) ?? new Set()).add(client));
        }
        refreshUnread(client.auth.tenantId, client.auth.adminId);
        return;
      }
    }
  }

  app.route({
    method: 'GET',
    url: '/api/ws',
    // Signed in by the first message (or the upgrade's bearer header), not by the HTTP hook.
    config: { auth: false },
    schema: { hide: true },
    // A plain HTTP request (no upgrade) gets the envelope like every other answer.
    handler: async () => {
      throw new BizError('BadRequest', { additional: 'WebSocket upgrade required' });
    },
    wsHandler: (socket, request) => {
      const client: Client = { socket, orders: new Set(), inbox: false };
      clients.add(client);
      let bearerToken = bearerOf(request);
      const authTimer = setTimeout(() => {
        if (!client.auth) socket.close(CLOSE_UNAUTHORIZED, 'Unauthorized');
      }, AUTH_TIMEOUT_MS);
      const sessionTimer = setInterval(() => {
        if (!client.auth) return;
        app.access.resolve(bearerToken ?? '').catch(() => socket.close(CLOSE_UNAUTHORIZED, 'Unauthorized'));
      }, SESSION_CHECK_MS);
      // Messages are handled one after another, in the order they came.
      let queue = Promise.resolve();
      const run = (message: WsClientMessage) =>
        handle(client, request, message).catch((error: unknown) => {
          if (error instanceof BizError) {
            send(socket, { type: 'error', message: error.key });
            if (error.status === 40100) socket.close(CLOSE_UNAUTHORIZED, error.key);
            return;
          }
          request.log.error({ err: error }, 'chat socket');
          send(socket, { type: 'error', message: 'ServerError' });
        });
      if (bearerToken) queue = queue.then(() => run({ type: 'auth', token: bearerToken! }));
      socket.on('message', (data, isBinary) => {
        const parsed = isBinary ? undefined : wsClientMessageSchema.safeParse(safeJson(data.toString()));
        if (!parsed?.success) {
          send(socket, { type: 'error', message: 'BadRequest' });
          return;
        }
        if (parsed.data.type === 'auth' && !client.auth) bearerToken = parsed.data.token;
        queue = queue.then(() => run(parsed.data));
      });
      socket.on('close', () => {
        clearTimeout(authTimer);
        clearInterval(sessionTimer);
        for (const orderId of [...client.orders]) unsubscribe(client, orderId);
        leaveInbox(client);
        clients.delete(client);
      });
    },
  });
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
