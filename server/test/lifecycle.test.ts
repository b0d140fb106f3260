import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lifecycle } from '../src/core/lifecycle.ts';
import { startTestApp, type TestContext } from './harness.ts';

/* The orderly stop's drain (core/lifecycle.ts): the health check fails while every other route still serves. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('draining before an orderly stop', () => {
  it('closes at once when no balancer checked the process', async () => {
    const started = Date.now();
    expect(await new Lifecycle().drain(5_000)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('fails the health check for the drain time while the other routes keep serving', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/base/system/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 0, data: { serving: true } });
    const started = Date.now();
    const drained = ctx.app.lifecycle.drain(300);
    const during = await ctx.app.inject({ method: 'GET', url: '/api/base/system/health' });
    expect(during.statusCode).toBe(503);
    expect(during.json()).toMatchObject({ message: 'ServerStopping' });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/base/system/config' })).statusCode).toBe(200);
    expect(await drained).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
