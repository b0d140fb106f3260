#!/usr/bin/env node
/**
 * `npm run cluster`: the scale-out set-up of docs/operations.md on one machine — HAProxy (Debian's package)
 * on PORT (default 8080) in front of CLUSTER_PROCESSES (default 3) server processes on 127.0.0.1:8081…,
 * all on one PostgreSQL (DATABASE_URL, required) and one Redis (REDIS_URL, default redis://127.0.0.1:6379).
 * A process that exits is started again after a second (what systemd's Restart=always does); Ctrl-C stops
 * everything. Runs the server bundle and serves the web build when `npm run build` made them, else the
 * sources through tsx (API only). server/test/cluster-haproxy.test.ts drives the same set-up under load.
 *
 * `startCluster` is the same for the test: it returns the balancer's URL and each process, to kill and start.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUNDLE = path.join(ROOT, 'server/dist/main.mjs');

/** The last megabyte of a process's output (HAProxy logs every request): kept for errors and the test. */
const keep = (text) => (text.length > 1_000_000 ? text.slice(-1_000_000) : text);

/** HAProxy's program: HAPROXY, else Debian's (/usr/sbin is not on every user's PATH), else the PATH's. */
export const HAPROXY = process.env.HAPROXY ?? (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy');

/** The HAProxy configuration of the cluster (also the one the compose file's balancer uses, deploy/haproxy.cfg). */
export function haproxyConfig({ port, servers, bind = '127.0.0.1' }) {
  return `global
  maxconn 4096
  # one line per request on stdout (its termination state says why a request failed)
  log stdout format raw local0 info

defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # a WebSocket (the service chat) once upgraded
  timeout tunnel 1h
  # one request per connection to a server: a request never goes out on a kept-alive connection that a
  # stopping server is closing, and a refused connection is retried at another server (conn-failure only:
  # a request that reached a server is never sent twice)
  option http-server-close
  option forwardfor
  retries 3
  option redispatch 1
  retry-on conn-failure

frontend p8
  bind ${bind}:${port}
  default_backend app

backend app
  balance roundrobin
  # the health route answers 503 while a process drains before an orderly stop (SIGTERM): it is taken out
  # of the rotation within inter + 2 x fastinter (1.5 s), well inside its SHUTDOWN_DRAIN_MS (4 s), while it
  # still serves what it was sent. A check that takes more than 2 s counts as failed; three failures mark a
  # process down (a dead process refuses connections at once, and those go to another process anyway:
  # retry-on conn-failure)
  option httpchk GET /api/base/system/health
  http-check expect status 200
  timeout check 2s
  default-server inter 1s fastinter 250ms fall 3 rise 1
${servers.map((s, i) => `  server app${i + 1} ${s} check`).join('\n')}
`;
}

/**
 * Starts HAProxy on `port` and `processes` servers (on the ports after it, or on `ports`). `supervise`: start a process again a second after it exits on its
 * own (the CLI); the test kills and starts them itself. Resolves once the balancer answers.
 */
export async function startCluster({ databaseUrl, redisUrl, processes = 3, port = 8080, ports, env = {}, supervise = false, bundle = existsSync(BUNDLE), log = () => {} }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'p8-cluster-'));
  const nodes = (ports ?? Array.from({ length: processes }, (_, i) => port + 1 + i)).map((nodePort, i) => makeNode(i, nodePort));

  function makeNode(index, nodePort) {
    let child;
    let exited = Promise.resolve();
    let stopping = false;
    let output = '';
    const node = {
      index,
      port: nodePort,
      url: `http://127.0.0.1:${nodePort}`,
      get pid() {
        return child?.pid;
      },
      output: () => output,
      /** Starts the process and resolves once it answers. */
      async start() {
        stopping = false;
        const childEnv = {
          ...process.env,
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          PORT: String(nodePort),
          HOST: '127.0.0.1',
          TRUST_PROXY: '127.0.0.1',
          SEED_DEMO: '0',
          LOG_LEVEL: 'warn',
          ...(bundle ? {} : { WEB_DIST: path.join(ROOT, 'no-web-build') }),
          ...env,
        };
        child = spawn(process.execPath, bundle ? ['--enable-source-maps', BUNDLE] : ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
        const mine = child;
        mine.stdout.on('data', (chunk) => (output = keep(output + chunk)));
        mine.stderr.on('data', (chunk) => (output = keep(output + chunk)));
        exited = new Promise((resolve) => mine.once('exit', resolve));
        void exited.then((code) => {
          log(`app${index + 1} (pid ${mine.pid}) exited (${code ?? mine.signalCode})`);
          if (supervise && !stopping && mine === child) setTimeout(() => void node.start().catch((error) => log(String(error))), 1000);
        });
        for (const deadline = Date.now() + 120_000; ; ) {
          if (mine.exitCode !== null || mine.signalCode !== null) throw new Error(`app${index + 1} exited before it was ready:\n${output}`);
          const ready = await fetch(`${node.url}/api/base/system/config`).then((res) => res.ok, () => false);
          if (ready) break;
          if (Date.now() > deadline) throw new Error(`app${index + 1} did not answer within 120 s:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        log(`app${index + 1} (pid ${mine.pid}) serves ${node.url}`);
      },
      /** Sends `signal` and resolves once the process is gone (SIGTERM: it finishes its requests first). */
      async kill(signal = 'SIGTERM') {
        stopping = true;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      },
    };
    return node;
  }

  const configFile = path.join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig({ port, servers: nodes.map((n) => `127.0.0.1:${n.port}`) }));
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', configFile], { encoding: 'utf8' });
  if (check.error || check.status !== 0) throw new Error(`haproxy is missing or refuses its configuration (apt-get install -y haproxy): ${check.error?.message ?? check.stderr}`);

  await nodes[0].start(); // the first runs the migrations alone; the others find them done
  await Promise.all(nodes.slice(1).map((n) => n.start()));
  let haproxyOutput = '';
  const haproxy = spawn(HAPROXY, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  haproxy.stdout.on('data', (chunk) => (haproxyOutput = keep(haproxyOutput + chunk)));
  haproxy.stderr.on('data', (chunk) => (haproxyOutput = keep(haproxyOutput + chunk)));
  const haproxyExited = new Promise((resolve) => haproxy.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 20_000; ; ) {
    if (haproxy.exitCode !== null) throw new Error(`haproxy exited:\n${haproxyOutput}`);
    if (await fetch(`${url}/api/base/system/config`).then((res) => res.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not answer within 20 s:\n${haproxyOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  log(`haproxy (pid ${haproxy.pid}) balances ${url} over ${nodes.length} processes`);
  return {
    url,
    nodes,
    haproxyOutput: () => haproxyOutput,
    async stop() {
      await Promise.all(nodes.map((n) => n.kill('SIGTERM')));
      if (haproxy.exitCode === null) {
        haproxy.kill('SIGTERM');
        await haproxyExited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('npm run cluster: set DATABASE_URL to a PostgreSQL database (e.g. postgres://postgres@127.0.0.1:5432/p8)');
    process.exit(2);
  }
  const cluster = await startCluster({
    databaseUrl,
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    processes: Number(process.env.CLUSTER_PROCESSES ?? 3),
    port: Number(process.env.PORT ?? 8080),
    supervise: true,
    log: (line) => console.log(`cluster: ${line}`),
  });
  console.log(`cluster: ready at ${cluster.url} (Ctrl-C stops it)`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.log('cluster: stopping');
      void cluster.stop().then(() => process.exit(0));
    });
  }
}
