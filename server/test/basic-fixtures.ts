import { recordKind } from '@p8/contract/records/catalogue';
import { recordApiPath } from '@p8/contract/records/registry';
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TenantConfig } from '@p8/contract/tenant-config';
import { admin, adminRole, menu, role, roleMenu, stockBalance, tenant } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/core/passwords.ts';
import type { Tx } from '../src/db/connection.ts';
import { call, login, unique, type Reply, type TestContext, type TestTenant } from './harness.ts';

/**
 * Fixtures of the basic-record tests: a signed-in caller bound to one tenant, staff with chosen button
 * codes, tenant switches, stock put on hand (the bill engine's job, done directly here), and .xlsx files.
 */


/** Where a record of kind `record` is created: a declared kind at its area's path (an inspection template is quality's), the others under basic. */
export function recordCreatePath(record: string): string {
  const declared = recordKind(record);
  return declared ? `/api${recordApiPath(declared)}` : `/api/admin/basic/${record}`;
}

export interface Caller {
  token: string;
  adminId: number;
  get<T = unknown>(url: string): Promise<Reply<T>>;
  post<T = unknown>(url: string, body?: unknown): Promise<Reply<T>>;
  put<T = unknown>(url: string, body?: unknown): Promise<Reply<T>>;
  del<T = unknown>(url: string, body?: unknown): Promise<Reply<T>>;
  /** Creates through the API and returns the new id, failing the test if refused. */
  create(record: string, body: unknown): Promise<number>;
  upload<T = unknown>(url: string, file: Buffer, filename?: string): Promise<Reply<T>>;
  download(url: string, body?: unknown): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>;
}

export function caller(ctx: TestContext, token: string, adminId: number): Caller {
  const self: Caller = {
    token,
    adminId,
    get: (url) => call(ctx.app, 'GET', url, { token }),
    post: (url, body) => call(ctx.app, 'POST', url, { token, body }),
    put: (url, body) => call(ctx.app, 'PUT', url, { token, body }),
    del: (url, body) => call(ctx.app, 'DELETE', url, { token, body }),
    async create(record, body) {
      const res = await self.post<{ id: number }>(recordCreatePath(record), body);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
      return res.body.data.id;
    },
    async upload(url, file, filename = 'import.xlsx') {
      const boundary = `----p8${randomBytes(8).toString('hex')}`;
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await ctx.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      return { httpStatus: res.statusCode, body: res.json(), headers: res.headers };
    },
    async download(url, body) {
      const res = await ctx.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
    },
  };
  return self;
}

export async function adminCaller(ctx: TestContext, t: TestTenant): Promise<Caller> {
  return caller(ctx, await login(ctx.app, t.name, t.password), t.adminId);
}

let hash: Promise<string> | undefined;

/** A staff member of `deptId` (default: the tenant's department) whose only role holds `codes`. */
export async function staffCaller(ctx: TestContext, t: TestTenant, codes: string[] = [], deptId: number | null = t.deptId): Promise<Caller & { roleId: number }> {
  hash ??= hashPassword('Passw0rd!');
  const suffix = unique();
  const name = `bs${suffix}`;
  const ids = await ctx.database.withTenant(t.tenantId, async (tx) => {
    const [r] = await tx.insert(role).values({ tenantId: t.tenantId, roleKey: `b${suffix}`, roleName: `Basic ${suffix}`, dataScope: 'All' }).returning({ id: role.id });
    const [a] = await tx.insert(admin).values({ tenantId: t.tenantId, name, passwordHash: await hash!, realName: `Staff ${suffix}`, deptId }).returning({ id: admin.id });
    await tx.insert(adminRole).values({ tenantId: t.tenantId, adminId: a.id, roleId: r.id });
    if (codes.length) {
      const all = await tx.select({ id: menu.id, parentId: menu.parentId, name: menu.name }).from(menu).where(eq(menu.tenantId, t.tenantId));
      const byId = new Map(all.map((m) => [m.id, m]));
      const granted = new Set<number>();
      for (const code of codes) {
        let item = all.find((m) => m.name === code);
        if (!item) throw new Error(`no menu named ${code}`);
        while (item) {
          granted.add(item.id);
          item = item.parentId === null ? undefined : byId.get(item.parentId);
        }
      }
      await tx.insert(roleMenu).values([...granted].map((menuId) => ({ tenantId: t.tenantId, roleId: r.id, menuId })));
    }
    return { adminId: a.id, roleId: r.id };
  });
  const token = await login(ctx.app, name, 'Passw0rd!');
  return { ...caller(ctx, token, ids.adminId), roleId: ids.roleId };
}

/** Sets tenant switches directly (the tenant-config screen is another module's). */
export async function setTenantConfig(ctx: TestContext, tenantId: number, patch: Partial<TenantConfig>) {
  await ctx.database.withSystem((tx) =>
    tx
      .update(tenant)
      .set({ config: sql`${tenant.config} || ${JSON.stringify(patch)}::jsonb` })
      .where(eq(tenant.id, tenantId)),
  );
}

/** Puts stock on hand, as the bill engine will. */
export async function putStock(ctx: TestContext, tenantId: number, row: { materialId: number; warehouseId: number; locationId?: number | null; quantity: string; batchNumber?: string; serialNumber?: string }) {
  await ctx.database.withTenant(tenantId, (tx) => tx.insert(stockBalance).values({ tenantId, ...row }));
}

export async function clearStock(ctx: TestContext, tenantId: number) {
  await ctx.database.withTenant(tenantId, (tx) => tx.update(stockBalance).set({ quantity: '0' }).where(and(eq(stockBalance.tenantId, tenantId))));
}

/**
 * Statements run in tenant transactions (the requests' and the permission check's) while `fn` runs: a
 * route whose count grows with the data has a query per row somewhere.
 */
export async function countTenantQueries(ctx: TestContext, fn: () => Promise<unknown>): Promise<number> {
  const statements = new Set(['select', 'selectDistinct', 'insert', 'update', 'delete', 'execute']);
  let count = 0;
  const counting = (tx: Tx) =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && statements.has(prop)) count += 1;
        return Reflect.get(target, prop, receiver);
      },
    });
  const original = ctx.database.withTenant;
  ctx.database.withTenant = <T>(tenantId: number, run: (tx: Tx) => Promise<T>) => original.call(ctx.database, tenantId, (tx) => run(counting(tx))) as Promise<T>;
  try {
    await fn();
  } finally {
    ctx.database.withTenant = original;
  }
  return count;
}

/** An .xlsx with the given header row and data rows. */
export async function xlsx(header: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The rows of the first sheet of an .xlsx, header included, as plain values. */
export async function readXlsx(buffer: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}
