
declare module 'fastify' {
  interface FastifyInstance {
    /** The app's shared state (set by buildApp). */
    shared: SharedState;
  }
}

/**
 * State that every server process must see alike: rate-limit and wrong-guess counters, captcha and SMS
 * codes, and the messages that tell every process to drop a cached session. With REDIS_URL set it lives
 * in Redis (several processes behind one address); without it, in this process (one process only).
 *
 * Every decision is taken on a value an atomic step returned (an increment, a set-if-absent, a
 * read-and-delete), never on a value read earlier and written back, so parallel requests cannot slip
 * past a limit.
 */
export interface SharedState {
  readonly kind: 'memory' | 'redis';
  /** Adds one to a counter and returns the new value; the first increment starts its `ttlSeconds`. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  get(key: string): Promise<string | undefined>;
  /** Several keys in one round trip (the access cache reads its version stamps on every request). */
  getMany(keys: string[]): Promise<Array<string | undefined>>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets the key only when it does not exist; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Reads and deletes in one step: of parallel callers exactly one gets the value (single-use codes). */
  take(key: string): Promise<string | undefined>;
  del(key: string): Promise<void>;
  /** Delivers `message` to every process's subscribers of `channel`, this one included. */
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  /**
   * Called when messages may have been missed (the connection to Redis was lost and came back), so that
   * caches kept up to date by messages start over.
   */
  onResync(handler: () => void): void;
  close(): Promise<void>;
}

/** In-process implementation: a Map with expiry times (one server process). */
export function memorySharedState(): SharedState {
  const values = new Map<string, { value: string; expiresAt: number }>();
  const channels = new Map<string, Set<(message: string) => void>>();
  const live = (key: string) => {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  };
  // Expired entries are dropped when read; a periodic sweep keeps keys that are never read again from piling up.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of values) if (entry.expiresAt <= now) values.delete(key);
  }, 60_000);
  sweep.unref();
  const put = (key: string, value: string, ttlSeconds: number) => values.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  return {
    kind: 'memory',
    async incr(key, ttlSeconds) {
      const entry = live(key);
      const next = (entry ? Number(entry.value) : 0) + 1;
      if (entry) entry.value = String(next);
      else put(key, String(next), ttlSeconds);
      return next;
    },
    async get(key) {
      return live(key)?.value;
    },
    async getMany(keys) {
      return keys.map((key) => live(key)?.value);
    },
    async set(key, value, ttlSeconds) {
      put(key, value, ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      if (live(key)) return false;
      put(key, value, ttlSeconds);
      return true;
    },
    async take(key) {
      const entry = live(key);
      values.delete(key);
      return entry?.value;
    },
    async del(key) {
      values.delete(key);
    },
    async publish(channel, message) {
      for (const handler of channels.get(channel) ?? []) handler(message);
    },
    async subscribe(channel, handler) {
      const set = channels.get(channel) ?? new Set();
      set.add(handler);
      channels.set(channel, set);
    },
    onResync() {
      // One process: no message can be missed.
    },
    async close() {
      clearInterval(sweep);
      values.clear();
      channels.clear();
    },
  };
}

/**
 * Redis implementation. Every key and channel starts with `prefix`, so that several deployments (or
 * parallel test runs) can share one Redis without seeing each other's state.
 */
export async function redisSharedState(url: string, prefix: string): Promise<SharedState> {
  // Commands fail fast while Redis is unreachable (no offline queue): a login answers an error rather than hanging.
  const options = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
  // Loaded only when Redis is configured (the embedded set-up never needs the client).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  const handlers = new Map<string, Set<(message: string) => void>>();
  const resync = new Set<() => void>();
  // Without listeners ioredis reports a lost connection as an unhandled 'error' event; it reconnects by itself.
  const warn = (error: Error) => console.warn(`redis: ${error.message}`);
  client.on('error', warn);
  subscriber.on('error', warn);
  let ready = false;
  subscriber.on('ready', () => {
    // A reconnect: messages published while the connection was down are lost.
    if (ready) for (const handler of resync) handler();
    ready = true;
  });
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  await Promise.all([client.connect(), subscriber.connect()]);
  const k = (key: string) => prefix + key;
  return {
    kind: 'redis',
    async incr(key, ttlSeconds) {
      // SET NX EX creates the counter with its expiry; INCR keeps that expiry. One MULTI: both or neither.
      const result = await client.multi().set(k(key), '0', 'EX', ttlSeconds, 'NX').incr(k(key)).exec();
      const [error, value] = result?.[1] ?? [new Error('redis: transaction aborted'), null];
      if (error) throw error;
      return Number(value);
    },
    async get(key) {
      return (await client.get(k(key))) ?? undefined;
    },
    async getMany(keys) {
      return (await client.mget(keys.map(k))).map((value) => value ?? undefined);
    },
    async set(key, value, ttlSeconds) {
      await client.set(k(key), value, 'EX', ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await client.set(k(key), value, 'EX', ttlSeconds, 'NX')) === 'OK';
    },
    async take(key) {
      return (await client.getdel(k(key))) ?? undefined;
    },
    async del(key) {
      await client.del(k(key));
    },
    async publish(channel, message) {
      await client.publish(k(channel), message);
    },
    async subscribe(channel, handler) {
      const set = handlers.get(k(channel)) ?? new Set();
      if (!set.size) await subscriber.subscribe(k(channel));
      set.add(handler);
      handlers.set(k(channel), set);
    },
    onResync(handler) {
      resync.add(handler);
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}

export function openSharedState(config: { redisUrl?: string; redisPrefix: string }): Promise<SharedState> {
  return config.redisUrl ? redisSharedState(config.redisUrl, config.redisPrefix) : Promise.resolve(memorySharedState());
}
