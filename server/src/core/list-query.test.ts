import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { bill } from '../db/schema/index.ts';
import { billListSpec } from '../bills/list.ts';
import type { AuthContext } from './auth.ts';
import { dataScopeWhere } from './data-scope.ts';
import { listStatementText, parseList, type ListSpec } from './list-query.ts';
import type { CallerRoles } from './permissions.ts';
import type { Tx } from '../db/connection.ts';

/*
 * The big lists render their where and order with a renderer of their own (`listStatementText`), not Drizzle's.
 * For every bill type, every filter its list declares, every sort and every data scope, the text and the
 * parameters must be Drizzle's, byte for byte — and the renderer must not have fallen back to Drizzle.
 */

const dialect = new PgDialect();

/** A value each filter kind accepts. */
const SAMPLE: Record<string, string> = { eq: 'x', in: '1,2,3', contains: '50%_a', like: 'ab', bool: 'true', number: '7' };

/** The caller's data scope of each kind, as `dataScopeWhere` builds it for the bill columns. */
async function scopes(): Promise<Array<SQL | undefined>> {
  const auth = { tenantId: 1, adminId: 5, access: { deptId: async () => 3 } } as unknown as AuthContext;
  const roles = (...kinds: Array<[string, number[]]>) => ({ isSuper: false, roles: kinds.map(([dataScope, scopeDeptIds]) => ({ dataScope, scopeDeptIds })) }) as unknown as CallerRoles;
  const columns = { dept: bill.ownerDeptId, owner: bill.createdBy };
  const tx = undefined as unknown as Tx;
  return [
    undefined,
    await dataScopeWhere(tx, auth, roles(['Self', []]), columns),
    await dataScopeWhere(tx, auth, roles(['Dept', []]), columns),
    await dataScopeWhere(tx, auth, roles(['Custom', [4, 6]], ['Dept', []]), columns),
  ];
}

/** Every query a list of `spec` answers one filter or sort at a time, then all filters at once. */
function queries(spec: ListSpec): Array<Record<string, string>> {
  const found: Array<Record<string, string>> = [{}];
  const all: Record<string, string> = {};
  for (const [name, field] of Object.entries(spec.fields)) {
    if (field.filter) {
      found.push({ [name]: SAMPLE[field.filter] });
      all[name] = SAMPLE[field.filter];
    }
    if (field.sortable) found.push({ [`${name}Sort`]: 'asc' }, { [`${name}Sort`]: 'desc' });
  }
  found.push(all);
  return found;
}

function expectSameAsDrizzle(statement: SQL) {
  const ours = listStatementText(statement);
  expect(ours, 'rendered by the list renderer, not left to Drizzle').toBeDefined();
  const { sql: text, params } = dialect.sqlToQuery(statement);
  expect(ours).toEqual({ sql: text, params });
}

describe('the list statements rendered without Drizzle', () => {
  it.each(BILL_TYPES.map((decl) => [decl.type, decl] as const))('are what Drizzle renders: %s', async (_type, decl) => {
    const spec = billListSpec(decl);
    for (const scope of await scopes()) {
      for (const query of queries(spec)) {
        const extra = [eq(bill.tenantId, 1), eq(bill.billType, decl.type), gte(bill.billDate, '2026-05-01'), lte(bill.billDate, '2026-07-31'), scope];
        const parsed = parseList(spec, { current: '2', pageSize: '20', ...query }, extra);
        expectSameAsDrizzle(sql.join([sql`select 1 from ${bill}`, sql`where ${parsed.where}`, sql`order by ${sql.join(parsed.orderBy, sql`, `)}`], sql` `));
      }
    }
  });

  it('renders lists of values, nested conditions, bare values and JSON the same', () => {
    expectSameAsDrizzle(and(sql`${bill.id} in ${[1, 2, 3]}`, sql`${bill.extra} @> ${JSON.stringify({ a: 1 })}::jsonb`, sql`(${bill.extra} ->> ${'fundAccountId'})::bigint = ${9}`, sql`${bill.createdAt} < ${new Date(0)}`)!);
  });

  it('leaves to Drizzle what it does not render itself', () => {
    expect(listStatementText(sql`${bill.id} = ${sql.placeholder('id')}`)).toBeUndefined();
    expect(listStatementText(sql`${sql.raw('1')} = ${sql`${1}`.inlineParams()}`)).toBeUndefined();
  });
});
