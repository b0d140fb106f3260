import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { systemSetting } from '../src/db/schema/index.ts';
import { BizError } from '../src/core/errors.ts';
import { runImport, type ImportRow } from '../src/core/excel.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe(`batch import, each row in its own savepoint (${TEST_DB})`, () => {
  it('keeps the good rows, rolls back only the bad ones and reports each by row number and catalogue key', async () => {
    const t = await seedTenant(ctx.database, 'Imp');
    const rows: ImportRow[] = [
      { rowNum: 2, data: { key: 'alpha', value: 1 } },
      // Writes, then fails: its write must not survive.
      { rowNum: 3, data: { key: 'beta', value: 2, fail: 'NameRepeat' } },
      { rowNum: 4, data: { key: 'gamma', value: 'not a number' } },
      // The same key again: the database refuses it (primary key), the batch goes on.
      { rowNum: 5, data: { key: 'alpha', value: 5 } },
      { rowNum: 6, data: { key: 'delta', value: 6 } },
    ];
    const rowSchema = z.object({ key: z.string(), value: z.number({ message: 'PleaseInputNumber' }), fail: z.string().optional() });
    const unexpected: number[] = [];
    const result = await ctx.database.withTenant(t.tenantId, (tx) =>
      runImport(
        tx,
        rows,
        async (sp, row) => {
          const input = rowSchema.parse(row.data);
          await sp.insert(systemSetting).values({ tenantId: t.tenantId, key: input.key, value: input.value });
          if (input.fail) throw new BizError('NameRepeat');
        },
        (_error, row) => unexpected.push(row.rowNum),
      ),
    );
    expect(result).toEqual({
      total: 5,
      successCount: 2,
      errorCount: 3,
      errList: [
        { rowNum: 3, data: rows[1].data, errorMsg: 'NameRepeat' },
        { rowNum: 4, data: rows[2].data, errorMsg: 'PleaseInputNumber' },
        { rowNum: 5, data: rows[3].data, errorMsg: 'ImportFailed' },
      ],
    });
    expect(unexpected).toEqual([5]);
    const stored = await ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(systemSetting).where(eq(systemSetting.tenantId, t.tenantId)));
    expect(stored.map((s) => [s.key, s.value]).sort()).toEqual([
      ['alpha', 1],
      ['delta', 6],
    ]);
  });
});
