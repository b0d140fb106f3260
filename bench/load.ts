/**
 * Load generator, run as its own process by `login-and-role.ts` so that autocannon does not share an
 * event loop (or a core) with the server under test. Reads a `LoadSpec` as JSON on stdin, prints a
 * `LoadResult` as JSON on stdout. Requests rotate over `bodies` / `tokens` so that every seeded
 * tenant is exercised.
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  durationSeconds: number;
  connections: number;
  /** JSON bodies, used in turn. */
  bodies?: string[];
  /** Bearer tokens, used in turn. */
  tokens?: string[];
}

export interface LoadResult {
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** CPU time the load generator itself spent while loading (user + system), ms. */
  cpuMs?: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main() {
  const spec = JSON.parse(await readStdin()) as LoadSpec;
  let turn = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    requests: [
      {
        method: spec.method,
        path: spec.path,
        setupRequest: (request) => {
          const i = turn++;
          const headers: Record<string, string> = { ...(request.headers as Record<string, string>) };
          if (spec.tokens?.length) headers.authorization = `Bearer ${spec.tokens[i % spec.tokens.length]}`;
          if (spec.bodies?.length) {
            headers['content-type'] = 'application/json';
            return { ...request, headers, body: spec.bodies[i % spec.bodies.length] };
          }
          return { ...request, headers };
        },
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const out: LoadResult = {
    requests: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1),
    cpuMs: ((spent) => (spent.user + spent.system) / 1000)(process.cpuUsage(cpu)),
  };
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
