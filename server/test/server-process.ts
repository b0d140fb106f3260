import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/** Server processes of the multi-process tests (cluster.test.ts, chat-cluster.test.ts). */

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Server {
  url: string;
  stop(): Promise<void>;
  output(): string;
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `server/src/main.ts` as its own process on a free port against `databaseUrl` (no demo data, no web
 * build), with `env` added (REDIS_URL, REDIS_PREFIX…); resolves once it answers.
 */
export async function startServer(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    EXPOSE_CODES_FOR_TESTS: '1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(ROOT, 'no-web-build'),
    ...env,
  };
  delete childEnv.TRUST_PROXY;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: Server = {
    url: `http://127.0.0.1:${port}`,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  for (const deadline = Date.now() + 100_000; ; ) {
    if (child.exitCode !== null) throw new Error(`a server exited before it was ready:\n${log}`);
    try {
      if ((await fetch(`${server.url}/api/base/system/config`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`a server did not answer within 100 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
