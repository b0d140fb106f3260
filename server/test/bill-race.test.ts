import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { billApiPath, headerFields, lineKindOf, meets, type BillTypeDecl, type SourceDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES, PROGRESS_STATES } from '@p8/contract/bills/status';
import { migrateDatabase, openDatabase, rows, type Database } from '../src/db/connection.ts';
import { adminCaller, recordCreatePath, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, ok, refused, type BillRecords, feedConsumed } from './bill-fixtures.ts';
import { createTestDatabase, seedTenant, startTestApp, TEST_DB, type Reply, type TestTenant } from './harness.ts';
import { startServer, type Server } from './server-process.ts';

/** What a source is told when its audit is withdrawn under a draft of `target` (the type's declared refusal, else the engine's). */
const heldRefusal = (target: BillTypeDecl) => target.heldSourceRefusal ?? 'ExistChildrenBillProhibitAbandonAudit';

/*
 * Withdrawing a bill's audit and pushing a downstream bill down from it, arriving together at two server
 * processes on one PostgreSQL, for every source → target pair the registry declares: exactly one of the
 * two may win, and afterwards no downstream bill takes from a source that is not audited, and every
 * source's progress agrees with what its downstream bills did. Runs in the PostgreSQL stage (TEST_DB=postgres
 * with DATABASE_URL, as .ci/run sets it).
 */
const enabled = TEST_DB === 'postgres' && Boolean(process.env.DATABASE_URL);
const ROUNDS = 3;
const POSTED = new Set<string>(POSTED_STATUSES);

const PAIRS = BILL_TYPES.flatMap((target) => target.sources.map((source) => ({ target, source, sourceDecl: billType(source.type)! })));

/** A Caller over HTTP to one server process (the fixtures' record and bill builders take one). */
function httpCaller(server: Server, token: string, adminId: number): Caller {
  const send = async <T,>(method: string, url: string, body?: unknown): Promise<Reply<T>> => {
    const res = await fetch(server.url + url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { httpStatus: res.status, body: (await res.json()) as Reply<T>['body'], headers: {} };
  };
  const self: Caller = {
    token,
    adminId,
    get: (url) => send('GET', url),
    post: (url, body) => send('POST', url, body ?? {}),
    put: (url, body) => send('PUT', url, body ?? {}),
    del: (url, body) => send('DELETE', url, body ?? {}),
    async create(record, body) {
      const res = await self.post<{ id: number }>(recordCreatePath(record), body);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
      return res.body.data.id;
    },
    upload: () => Promise.reject(new Error('not over HTTP here')),
    download: () => Promise.reject(new Error('not over HTTP here')),
  };
  return self;
}

async function okData<T>(promise: Promise<Reply<T>>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}

/** The header a source of `source`'s declaration needs to feed its target: its `onlyWhen` met. */
const feeding = (source: SourceDecl): Record<string, unknown> => (source.onlyWhen ? { [source.onlyWhen.field]: source.onlyWhen.values[0] } : {});

/**
 * An audited bill of `decl`'s type that feeds `source`'s target, made through `api`: its id, its tax-inclusive
 * amount and the lines the target takes (a pick: the order's materials). A type whose lines must come from a
 * source (a production pick) is made from an audited bill of its own first source, the same way.
 */
async function auditedFeeding(api: Caller, records: BillRecords, decl: BillTypeDecl, source: SourceDecl, overrides: Record<string, unknown> = {}): Promise<{ id: number; amount: number; lineIds: number[]; materialIds: number[] }> {
  const url = billApiPath(decl);
  const body = billPayload(decl, records, { ...overrides, ...feeding(source) });
  if (decl.sourceRequired) {
    const own = await auditedFeeding(api, records, billType(decl.sources[0].type)!, decl.sources[0], overrides);
    body.lines = (body.lines as Array<Record<string, unknown>>).slice(0, 1).map((l) => ({ ...l, materialId: own.materialIds[0], sourceLineId: own.lineIds[0] }));
    // What the bill consumes of its source (an outsourcing receipt: the materials picks sent) goes first.
    const source = await okData(api.get<{ lines: Array<{ id: number } & Record<string, unknown>> }>(`${billApiPath(billType(decl.sources[0].type)!)}/${own.id}`));
    await feedConsumed(async (url, b) => (await api.post(url, b)).body, decl, records, source);
  }
  const { id } = await okData(api.post<{ id: number }>(url, body));
  await okData(api.post(`${url}/submit`, { id }));
  await okData(api.post(`${url}/audit`, { id }));
  const detail = await okData(api.get<{ taxPriceTotal: number; lines: Array<{ id: number; materialId: number } & Record<string, unknown>> }>(`${url}/${id}`));
  const taken = detail.lines.filter((l) => meets(source.fromLines, l));
  return { id, amount: detail.taxPriceTotal, lineIds: taken.map((l) => l.id), materialIds: taken.map((l) => l.materialId) };
}

describe.skipIf(!enabled)('withdrawing an audit against pushing down from it, at two server processes', () => {
  let database: Database;
  let dropDatabase: () => Promise<void>;
  let servers: Server[] = [];
  let t: TestTenant;
  let callers: Caller[];
  let records: BillRecords;

  beforeAll(async () => {
    const created = await createTestDatabase();
    dropDatabase = created.drop;
    database = await openDatabase({ databaseUrl: created.databaseUrl, poolSize: 2 });
    await migrateDatabase(database);
    servers = await Promise.all([startServer(created.databaseUrl!), startServer(created.databaseUrl!)]);
    t = await seedTenant(database, 'Race');
    callers = await Promise.all(
      servers.map(async (server) => {
        const res = await fetch(`${server.url}/api/auth/admin/name`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: t.name, password: t.password }) });
        const body = (await res.json()) as { data: { token: string } };
        return httpCaller(server, body.data.token, t.adminId);
      }),
    );
    records = await createBillRecords(callers[0]);
    // Enough stock for every out-stock, refund and lend of every round.
    const opening = await okData(callers[0].post<{ id: number }>(billApiPath(billType('OtherInstock')!), {
      billDate: '2026-11-24',
      warehouseId: records.warehouse,
      lines: [records.material, records.product, records.component].map((materialId) => ({ materialId, number: 100000, unitPrice: 2 })),
    }));
    for (const step of ['submit', 'audit']) await okData(callers[0].post(`${billApiPath(billType('OtherInstock')!)}/${step}`, { id: opening.id }));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await dropDatabase?.();
  }, 60_000);

  /** An audited bill of `decl`'s type that feeds `source`'s target (`auditedFeeding`), of its own period each round. */
  async function auditedSource(api: Caller, decl: BillTypeDecl, source: SourceDecl, round: number) {
    // One salary bill per staff member and month.
    const months = Object.fromEntries(headerFields(decl).filter((f) => f.kind === 'month').map((f) => [f.key, `2025-${String(round + 1).padStart(2, '0')}`]));
    return auditedFeeding(api, records, decl, source, months);
  }

  /**
   * A settlement type cannot be pushed down from a refund alone (its total would be negative): for such a
   * pair an audited bill of 50 of the target's positive source type, settled beside the refund.
   */
  async function companionOf(target: BillTypeDecl, sourceDecl: BillTypeDecl, source: SourceDecl): Promise<number | undefined> {
    if (lineKindOf(target) !== 'settlement' || sourceDecl.settlement?.sign !== -1) return undefined;
    const positive = target.sources.find((s) => billType(s.type)!.settlement?.sign === 1 && !s.onlyWhen && s.header[0] === source.header[0])!;
    const decl = billType(positive.type)!;
    const url = billApiPath(decl);
    const { id } = await okData(callers[0].post<{ id: number }>(url, billPayload(decl, records, { lines: [{ materialId: records.material, number: 5, unitPrice: 10 }] })));
    for (const step of ['submit', 'audit']) await okData(callers[0].post(`${url}/${step}`, { id }));
    return id;
  }

  it('lets exactly one of the two win for every declared source → target pair, and leaves no orphan', async () => {
    const outcomes: Array<{ pair: string; sourceId: number; withdrawn: Reply['body']; pushed: Reply<{ id: number }>['body'] }> = [];
    await Promise.all(
      PAIRS.map(async ({ target, source, sourceDecl }) => {
        const pair = `${source.type} → ${target.type}`;
        for (let round = 0; round < ROUNDS; round++) {
          // Each round the other process withdraws, so both orders of arrival are tried at both.
          const [withdrawer, pusher] = round % 2 ? [callers[1], callers[0]] : [callers[0], callers[1]];
          const made = await auditedSource(callers[round % 2], sourceDecl, source, round);
          const companion = await companionOf(target, sourceDecl, source);
          const [withdrawn, pushed] = await Promise.all([
            withdrawer.post(`${billApiPath(sourceDecl)}/abandonAudit`, { id: made.id }),
            companion
              ? // A refund is settled only beside a bill it takes from (a payment is never negative): saved with one.
                pusher.post<{ id: number }>(billApiPath(target), {
                  billDate: '2026-11-24',
                  ...source.defaults,
                  [source.header[0]]: source.header[0] === 'supplierId' ? records.supplier : records.customer,
                  fundAccountId: records.fundAccount,
                  lines: [
                    { sourceBillId: companion, amount: '50' },
                    { sourceBillId: made.id, amount: String(-made.amount) },
                  ],
                })
              : pusher.post<{ id: number }>(`${billApiPath(target)}/pushDown`, {
                  sourceType: source.type,
                  // Settlement lines take whole bills: their push down names the bills.
                  sourceLineIds: lineKindOf(target) === 'settlement' ? [made.id] : made.lineIds,
                }),
          ]);
          outcomes.push({ pair, sourceId: made.id, withdrawn: withdrawn.body, pushed: pushed.body });
        }
      }),
    );

    // Exactly one wins; the loser says why in catalogued words.
    const wrong = outcomes.flatMap(({ pair, withdrawn, pushed }) => {
      const { target } = PAIRS.find((p) => `${p.source.type} → ${p.target.type}` === pair)!;
      const fine = withdrawn.status === 0 ? ['SourceBillNotAudit', 'SettleBillNotOpen'].includes(pushed.message) : pushed.status === 0 && withdrawn.message === heldRefusal(target);
      return fine ? [] : [`${pair}: withdraw ${withdrawn.message}, push down ${pushed.message}`];
    });
    expect(wrong).toEqual([]);

    // No bill (but a merged one) takes from a source that is not audited.
    const orphans = await rows<Record<string, string>>(
      database,
      sql`select d.bill_type, d.bill_code, d.bill_status, s.bill_type as source_type, s.bill_code as source_code, s.bill_status as source_status
          from bill_line l
          join bill d on d.tenant_id = l.tenant_id and d.id = l.bill_id
          join bill s on s.tenant_id = l.tenant_id and s.id = l.source_bill_id
          where l.tenant_id = ${t.tenantId} and d.bill_status <> 'Merged'
            and s.bill_status not in (${sql.join(POSTED_STATUSES.map((s) => sql`${s}`), sql`, `)})`,
    );
    expect(orphans).toEqual([]);

    // Every raced source: withdrawn with nothing downstream, or still audited with its pushed draft, which
    // counts for no progress (a draft has done nothing yet).
    const sources = await rows<{ id: string; bill_status: string; progress: Record<string, string> }>(
      database,
      sql`select id, bill_status, progress from bill where tenant_id = ${t.tenantId} and id in (${sql.join(outcomes.map((o) => sql`${o.sourceId}`), sql`, `)})`,
    );
    const byId = new Map(sources.map((s) => [Number(s.id), s]));
    for (const { pair, sourceId, pushed } of outcomes) {
      const row = byId.get(sourceId)!;
      expect(POSTED.has(row.bill_status), `${pair}: source ${row.bill_status}`).toBe(pushed.status === 0);
      if (pushed.status !== 0) continue;
      const drives = PAIRS.find((p) => `${p.source.type} → ${p.target.type}` === pair)!.source.drives;
      expect(row.bill_status, pair).toBe('Audit');
      expect(row.progress[drives] ?? PROGRESS_STATES[drives][0], pair).toBe(PROGRESS_STATES[drives][0]);
    }
  }, 120_000);
});

/*
 * The same rules one at a time, on PGlite and PostgreSQL: a downstream draft keeps its source's audit, and a
 * bill whose source lost its audit all the same (as a race before these locks could leave it) is neither
 * submitted nor audited.
 */
describe('a source and the drafts taken from it', () => {
  it('refuses withdrawing a source while a draft takes from it, for every declared pair, and submitting or auditing against a withdrawn source', async () => {
    const ctx = await startTestApp();
    try {
      const tenant = await seedTenant(ctx.database, 'Drafts');
      const api = await adminCaller(ctx, tenant);
      const records = await createBillRecords(api);
      const stock = await ok(api.post<{ id: number }>(billApiPath(billType('OtherInstock')!), {
        billDate: '2026-11-24',
        warehouseId: records.warehouse,
        lines: [records.material, records.product, records.component].map((materialId) => ({ materialId, number: 1000, unitPrice: 2 })),
      }));
      for (const step of ['submit', 'audit']) await ok(api.post(`${billApiPath(billType('OtherInstock')!)}/${step}`, { id: stock.id }));
      const setStatus = (id: number, status: string) => ctx.database.withTenant(tenant.tenantId, (tx) => tx.execute(sql`update bill set bill_status = ${status} where tenant_id = ${tenant.tenantId} and id = ${id}`));
      let month = 0;
      for (const { target, source, sourceDecl } of PAIRS) {
        if (sourceDecl.settlement?.sign === -1 && lineKindOf(target) === 'settlement') continue; // never pushed alone (see above)
        const url = billApiPath(sourceDecl);
        const months = Object.fromEntries(headerFields(sourceDecl).filter((f) => f.kind === 'month').map((f) => [f.key, `2024-${String(++month).padStart(2, '0')}`]));
        const { id, lineIds } = await auditedFeeding(api, records, sourceDecl, source, months);
        const draft = await ok(api.post<{ id: number }>(`${billApiPath(target)}/pushDown`, { sourceType: source.type, sourceLineIds: lineKindOf(target) === 'settlement' ? [id] : lineIds }));
        await refused(api.post(`${url}/abandonAudit`, { id }), heldRefusal(target));
        await setStatus(id, 'AbandonAudit');
        await refused(api.post(`${billApiPath(target)}/submit`, { id: draft.id }), 'SourceBillNotAudit');
        await setStatus(id, 'Audit');
      }
      // An invoice submitted while its out-stock was audited, audited after the out-stock lost its audit.
      const outstock = await ok(api.post<{ id: number }>(billApiPath(billType('SaleOutstock')!), billPayload(billType('SaleOutstock')!, records)));
      for (const step of ['submit', 'audit']) await ok(api.post(`${billApiPath(billType('SaleOutstock')!)}/${step}`, { id: outstock.id }));
      const outLines = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${billApiPath(billType('SaleOutstock')!)}/${outstock.id}`))).lines.map((l) => l.id);
      const invoice = await ok(api.post<{ id: number }>(`${billApiPath(billType('SaleInvoice')!)}/pushDown`, { sourceType: 'SaleOutstock', sourceLineIds: outLines }));
      await ok(api.post(`${billApiPath(billType('SaleInvoice')!)}/submit`, { id: invoice.id }));
      await setStatus(outstock.id, 'AbandonAudit');
      await refused(api.post(`${billApiPath(billType('SaleInvoice')!)}/audit`, { id: invoice.id }), 'SourceBillNotAudit');
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
