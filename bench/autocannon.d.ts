// The subset of autocannon 8's API the benchmark uses (the package ships no types; avoiding
// @types/autocannon keeps the lockfile unchanged).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface RequestStep extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest | undefined;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestStep[];
  }

  interface Result {
    non2xx: number;
    errors: number;
    timeouts: number;
    requests: { average: number; total: number };
    latency: { average: number; p50: number; p99: number };
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
