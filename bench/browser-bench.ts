/**
 * What the browser benches (bill-form.ts, print-preview.ts) share: the demo tenant's API for setting up, and
 * timing a page in Chromium — wall time and the renderer's main-thread busy time of a step, a CPU profile of
 * it with its functions' self time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';
import { api, DEMO, type TestServer } from '../e2e/harness.ts';

/** The API as the demo administrator (signed in through the API): the data of a successful answer, else throws. */
export async function demoCaller(server: TestServer) {
  const signIn = await api<{ token: string }>(server, 'POST', '/auth/admin/name', { name: DEMO.name, password: DEMO.password });
  const token = signIn.data.token;
  return async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
    const answer = await api<T>(server, method, url, body, token);
    if (answer.status !== 0) throw new Error(`${method} ${url}: ${answer.message}`);
    return answer.data;
  };
}

/** Per step: wall time, and the page's main-thread busy time in it (Chromium's TaskDuration), in ms. */
export type Figure = { wall: number; busy: number };

/**
 * The renderer's main-thread task time so far (`Performance.enable` sent first). On a machine shared with
 * other work the wall time mostly measures the wait for a core; the busy time is what the page itself costs.
 */
export async function busyTime(session: CDPSession): Promise<number> {
  const { metrics } = await session.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

/** Wall and busy time of `work`. */
export async function timedOn(session: CDPSession, work: () => Promise<unknown>): Promise<Figure> {
  const b0 = await busyTime(session);
  const t0 = performance.now();
  await work();
  const wall = performance.now() - t0;
  return { wall, busy: (await busyTime(session)) - b0 };
}

/** `work` under the CPU profiler when `enabled`: the profile written to `file`, the top self times printed. */
export async function cpuProfile<T>(session: CDPSession, file: string, name: string, enabled: boolean, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  await session.send('Profiler.enable');
  await session.send('Profiler.start');
  const result = await work();
  const { profile: data } = await session.send('Profiler.stop');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(data));
  const self = new Map<string, number>();
  const interval = (data.endTime - data.startTime) / Math.max(1, data.samples?.length ?? 1);
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  for (const sample of data.samples ?? []) {
    const node = byId.get(sample)!;
    const key = `${node.callFrame.functionName || '(anonymous)'} ${path.basename(node.callFrame.url)}:${node.callFrame.lineNumber}:${node.callFrame.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + interval);
  }
  console.log(`\nCPU profile of ${name}, self time (ms):`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(us / 1000).toFixed(0).padStart(7)}  ${key}`);
  return result;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** A time for a table: milliseconds, or seconds from one second on. */
export const ms = (v: number) => (v >= 999.5 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
