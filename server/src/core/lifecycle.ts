import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/*
 * An orderly stop behind a balancer (docs/operations.md, "Orderly restarts"). The balancer asks
 * GET /api/base/system/health every second; on SIGTERM main.ts first sets `draining`, so the health check
 * answers 503 while every other route keeps serving, waits until the balancer has taken the process out of
 * its rotation, and only then closes (in-flight requests finish, idle kept-alive connections are closed).
 * A process nobody has health-checked lately (a single process, a test) has no balancer to wait for and
 * closes at once.
 */

/** A health check within this long means a balancer (or the container's HEALTHCHECK) is watching. */
const WATCHED_WITHIN_MS = 60_000;

export class Lifecycle {
  /** Set on SIGTERM: the health check fails so the balancer stops sending requests here. */
  draining = false;
  private lastHealthCheck = 0;

  /** The health route's answer: whether this process takes new requests. */
  healthCheck(): boolean {
    this.lastHealthCheck = Date.now();
    return !this.draining;
  }

  /** Whether something checked this process's health lately (then a stop drains first). */
  watched(now = Date.now()): boolean {
    return this.lastHealthCheck > 0 && now - this.lastHealthCheck < WATCHED_WITHIN_MS;
  }

  /**
   * Fails the health check and waits `drainMs` when a balancer is watching (resolves at once otherwise).
   * `drainMs` must exceed the balancer's time to take a process out (HAProxy: inter × fall, here 3 s).
   */
  async drain(drainMs: number): Promise<boolean> {
    this.draining = true;
    if (!this.watched() || drainMs <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    return true;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the process is draining before a stop (core/lifecycle.ts). */
    lifecycle: Lifecycle;
  }
}

export const lifecyclePlugin = fp(async (app: FastifyInstance) => {
  app.decorate('lifecycle', new Lifecycle());
});
