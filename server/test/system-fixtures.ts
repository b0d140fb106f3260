import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { DataScope } from '@p8/contract/system';
import { admin, adminRole, auditLog, menu, role, roleMenu } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/core/passwords.ts';
import { call, login, unique, type TestContext, type TestTenant } from './harness.ts';

/**
 * Fixtures of the system-administration tests: staff members whose role holds exactly the given button
 * codes and data scope, and the before/after check of a refused request.
 */
export interface TestStaff {
  adminId: number;
  roleId: number;
  name: string;
  password: string;
  token: string;
}

let passwordHash: Promise<string> | undefined;
const PASSWORD = 'Passw0rd!';

/**
 * Grants a role the Button menus named by `codes`, with the screens above them (as the permission route
 * does, telling the access cache too).
 */
export async function grantCodes(ctx: TestContext, tenantId: number, roleId: number, codes: string[]) {
  if (!codes.length) return;
  await ctx.database.withTenant(tenantId, async (tx) => {
    const all = await tx.select({ id: menu.id, parentId: menu.parentId, name: menu.name }).from(menu).where(eq(menu.tenantId, tenantId));
    const byId = new Map(all.map((m) => [m.id, m]));
    const ids = new Set<number>();
    for (const code of codes) {
      let item = all.find((m) => m.name === code);
      if (!item) throw new Error(`no menu named ${code}`);
      while (item) {
        ids.add(item.id);
        item = item.parentId === null ? undefined : byId.get(item.parentId);
      }
    }
    await tx
      .insert(roleMenu)
      .values([...ids].map((menuId) => ({ tenantId, roleId, menuId })))
      .onConflictDoNothing();
  });
  await ctx.app.access.changed([{ tenantId }]);
}

/** A staff member with an ordinary role holding `codes`, signed in. */
export async function staffWith(
  ctx: TestContext,
  t: TestTenant,
  opts: { codes?: string[]; dataScope?: DataScope; scopeDeptIds?: number[]; deptId?: number; createdBy?: number; phone?: string } = {},
): Promise<TestStaff> {
  passwordHash ??= hashPassword(PASSWORD);
  const hash = await passwordHash;
  const suffix = unique();
  const name = `st${suffix}`;
  const created = await ctx.database.withTenant(t.tenantId, async (tx) => {
    const [r] = await tx
      .insert(role)
      .values({ tenantId: t.tenantId, roleKey: `r${suffix}`, roleName: `Role ${suffix}`, dataScope: opts.dataScope ?? 'All', scopeDeptIds: opts.scopeDeptIds ?? [] })
      .returning({ id: role.id });
    const [a] = await tx
      .insert(admin)
      .values({
        tenantId: t.tenantId,
        name,
        passwordHash: hash,
        realName: name,
        deptId: opts.deptId ?? t.deptId,
        createdBy: opts.createdBy ?? null,
        phone: opts.phone ?? null,
      })
      .returning({ id: admin.id });
    await tx.insert(adminRole).values({ tenantId: t.tenantId, adminId: a.id, roleId: r.id });
    return { adminId: a.id, roleId: r.id };
  });
  await grantCodes(ctx, t.tenantId, created.roleId, opts.codes ?? []);
  return { ...created, name, password: PASSWORD, token: await login(ctx.app, name, PASSWORD) };
}

/**
 * The permission rule of one write route: a caller lacking `code` gets HTTP 403 / 40300 and `snapshot()`
 * reads the same before and after; a caller holding it succeeds.
 */
export async function expectGuarded(
  ctx: TestContext,
  t: TestTenant,
  route: { method: InjectOptions['method']; url: string; code: string; body: () => unknown | Promise<unknown>; snapshot: () => Promise<unknown> },
) {
  const without = await staffWith(ctx, t, { codes: [] });
  const before = await route.snapshot();
  const refused = await call(ctx.app, route.method, route.url, { token: without.token, body: await route.body() });
  expect(refused.httpStatus, `${route.method} ${route.url} without ${route.code}`).toBe(403);
  expect(refused.body).toMatchObject({ status: 40300, message: 'Forbidden', additional: route.code });
  expect(await route.snapshot(), `${route.method} ${route.url}: nothing changed`).toEqual(before);

  const holder = await staffWith(ctx, t, { codes: [route.code] });
  const done = await call(ctx.app, route.method, route.url, { token: holder.token, body: await route.body() });
  expect(done.body, `${route.method} ${route.url} with ${route.code}`).toMatchObject({ status: 0 });
  return done;
}

/** The newest audit entries of a tenant. */
export async function auditEntries(ctx: TestContext, tenantId: number, entity?: string) {
  return ctx.database.withTenant(tenantId, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenantId), entity ? eq(auditLog.entity, entity) : undefined))
      .orderBy(desc(auditLog.id)),
  );
}
