import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonMonth, ReportRow } from '@p8/contract/people';
import { seedDemo } from '../src/db/seed/demo.ts';
import { seedDemoRecords } from '../src/db/seed/demo-records.ts';
import { seedPeopleDemo } from '../src/db/seed/demo-people.ts';
import { call, login, startTestApp, TEST_DB, type TestContext } from './harness.ts';

/*
 * The demo's replacement requests, seeded at the real time (their time limit is the real clock's; demo-seed.test
 * seeds the attendance at a fixed past date, where none are filed): two workers' requests approved — their day is
 * normal with a replacement punch and the report counts it —, a third's awaiting the audit.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  await seedDemo(ctx.database);
});
afterAll(() => ctx.close());

describe(`demo replacement clock-ins (${TEST_DB})`, () => {
  it('files the workers’ requests through the engine: approved ones make the day normal and count in the report', async () => {
    await seedDemoRecords(ctx.app);
    expect(await seedPeopleDemo(ctx.app, ctx.database, ctx.config)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const get = async <T>(url: string) => (await call<T>(ctx.app, 'GET', url, { token })).body.data;
    const requests = await get<Array<{ billStatus: string; replaceDate: string; createdBy: number }>>('/api/admin/people/replacement?current=1&pageSize=50&billStatus=all');
    // A week of holidays may leave no workday within the limit; otherwise three requests, two approved.
    expect(requests.length === 0 || requests.map((r) => r.billStatus).sort().join() === 'Audit,Audit,Submitted').toBe(true);
    for (const request of requests) {
      const month = request.replaceDate.slice(0, 7);
      const day = (await get<PersonMonth>(`/api/admin/people/report/days?month=${month}&staffId=${request.createdBy}`)).days.find((d) => d.date === request.replaceDate)!;
      const replaced = (await get<ReportRow[]>(`/api/admin/people/report?month=${month}&pageSize=50`)).find((r) => r.staffId === request.createdBy)!.replaced;
      if (request.billStatus === 'Audit') {
        expect(day.result).toBe('normal');
        expect(day.punches.some((p) => p.source === 'replacement')).toBe(true);
        expect(replaced).toBe(1);
      } else {
        expect(day.result).toBe('missing');
        expect(replaced).toBe(0);
      }
    }
  }, 200_000);
});
