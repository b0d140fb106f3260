import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorKey } from '@p8/contract/errors';
import { rows } from '../src/db/connection.ts';
import { hashPassword } from '../src/core/passwords.ts';
import { login, seedTenant, setAdmin, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';

/*
 * The hostile-input walk of issue 8 §4: every operation of the OpenAPI document the app serves (generated
 * here from the app itself, so a route is covered the day it appears), called signed in as a tenant
 * administrator with hostile values — NUL bytes, lone surrogates, huge, negative and non-finite numbers,
 * dates outside any calendar a company uses, wrong types, arrays where scalars go, very long strings,
 * missing or malformed bodies, broken multipart. Every answer must be the envelope and none an HTTP 500;
 * a rejected write must leave the tenant's data as it was.
 *
 * Deterministic: each operation draws SAMPLES_PER_OPERATION cases from a generator seeded by its method
 * and path, so a failure reproduces, and the run stays well under a minute per database.
 */

const SAMPLES_PER_OPERATION = 7;

// ---------------------------------------------------------------- seeded choice

/** mulberry32: small, fast and good enough to pick test cases reproducibly. */
function generator(seedText: string) {
  let seed = 2166136261;
  for (const c of seedText) seed = Math.imul(seed ^ c.charCodeAt(0), 16777619);
  return {
    next(): number {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    pick<T>(list: readonly T[]): T {
      return list[Math.floor(this.next() * list.length)];
    },
  };
}
type Random = ReturnType<typeof generator>;

// ---------------------------------------------------------------- hostile values

/** Raw JSON text spliced into a body where JSON.stringify cannot go (non-finite numbers). */
const RAW = (json: string) => ({ __raw: json });
const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d',
  'x'.repeat(70_000),
  '',
  '   ',
  '<img src=x onerror=alert(1)>',
  "'; drop table admin; --",
  '%00',
  '../../../etc/passwd',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '0000-00-00',
  '9999-99-99',
  'NaN',
  '1e999',
];
// …and money at the edge of numeric(20,6): the largest value a column holds, as a number and as text, and
// just past it (sums of such values, a balance or a line amount, must be refused too: AmountOutOfRange).
const EDGE_MONEY = [99999999999999, '99999999999999.999999', RAW('99999999999999.9999999'), 1e14, '100000000000000', 1e13];
const HOSTILE_NUMBERS = [-1, 0, 1.5, -2147483649, 2147483648, RAW('9007199254740993'), 1e308, -1e308, RAW('1e999'), RAW('-1e999'), 'NaN', 'Infinity', ...EDGE_MONEY];
const WRONG_TYPES = [null, true, [], {}, ['a'], [[1]], { a: 1 }, 'str', 123];
const HOSTILE_ANY = [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...WRONG_TYPES];

/** Query and path values, already percent-encoded where they must be. */
const HOSTILE_QUERY = ['%00', 'a%00b', '%ED%A0%80', '%F0%9F', '%FF', '-1', '0', '1e999', 'NaN', '99999999999999999999999', '1.5', '+275760-09-13T00:00:00Z', '0001-01-01', 'x'.repeat(9000), '%2e%2e%2f', ''];
const HOSTILE_PATH = ['%00', '%ED%A0%80', '-1', '0', '1.5', 'NaN', '99999999999999999999999', '1e999', 'x'.repeat(150), '%2e%2e', 'a%2Fb'];
const EXTRA_QUERY_NAMES = ['start', 'end', 'name', 'title', 'keyword', 'code', 'current', 'pageSize', 'idSort', 'notInId'];

// ---------------------------------------------------------------- a plausible value from a JSON schema

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: JsonSchema | boolean;
};

const PATTERN_CANDIDATES = ['Passw0rd1', '13900000000', 'fuzzer01', 'Abcd_1234', '1234', '123456', '#ffffff', '2026-01-01', 'a'];

/** A value the schema accepts where that is easy, so one hostile field at a time gets past the others. */
function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return plausible(options.find((o) => o.type !== 'null') ?? options[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => plausible(schema.items, depth + 1));
    case 'integer':
    case 'number':
      return Math.max(1, Math.ceil(schema.minimum ?? 0), schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : 0);
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uuid') return '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        return PATTERN_CANDIDATES.find((c) => re.test(c)) ?? 'a';
      }
      return 'fuzz'.padEnd(schema.minLength ?? 0, 'z').slice(0, schema.maxLength ?? 100);
    }
    default:
      return null;
  }
}

/** The paths to every leaf of a plausible body, so a mutation can aim at any field, nested or not. */
function leafPaths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.length ? [prefix, ...leafPaths(value[0], [...prefix, 0])] : [prefix];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length ? [prefix, ...entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]))] : [prefix];
  }
  return [prefix];
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (!path.length) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

/** JSON text of a body, with RAW() values spliced in as they are. */
function toJson(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_k, v) => {
    if (v && typeof v === 'object' && '__raw' in v) {
      raws.push((v as { __raw: string }).__raw);
      return `__RAW_${raws.length - 1}__`;
    }
    return v;
  });
  return text === undefined ? '' : text.replace(/"__RAW_(\d+)__"/g, (_m, i: string) => raws[Number(i)]);
}

// ---------------------------------------------------------------- multipart

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';
function multipart(filename: string, content: string | Buffer, boundary = BOUNDARY, close = true): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(close ? `\r\n--${boundary}--\r\n` : ''),
  ]);
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HTML = '<html><script>alert(document.cookie)</script></html>';
const MULTIPART_CASES: Array<{ label: string; contentType: string; payload: Buffer | string }> = [
  { label: 'multipart without boundary', contentType: 'multipart/form-data', payload: multipart('a.xlsx', 'PK') },
  { label: 'truncated multipart', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart('a.xlsx', 'PK\u0003\u0004', BOUNDARY, false) },
  { label: 'empty multipart', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: '' },
  { label: 'html upload', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart('x.html', HTML) },
  { label: 'svg upload', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart('x.svg', `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`) },
  { label: 'png/html polyglot', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart('x.png', Buffer.concat([PNG_SIGNATURE, Buffer.from(HTML)])) },
  { label: 'NUL file name', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipart('a\u0000.xlsx', 'PK') },
];

// ---------------------------------------------------------------- the walk

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; schema?: JsonSchema }>;
  body?: JsonSchema;
}

function operationsOf(doc: { paths: Record<string, Record<string, { parameters?: Operation['parameters']; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema })),
  );
}

interface Case {
  label: string;
  request: InjectOptions;
}

/** One hostile request for an operation. */
function hostileCase(op: Operation, random: Random): Case {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const query: string[] = [];
  let label = '';
  // Path parameters: plausible, or (half the time) one hostile.
  let url = op.path;
  const hostilePath = pathParams.length && random.next() < 0.5 ? random.pick(pathParams).name : undefined;
  for (const p of pathParams) {
    const value = p.name === hostilePath ? random.pick(HOSTILE_PATH) : '1';
    if (p.name === hostilePath) label += ` path.${p.name}=${value.slice(0, 40)}`;
    url = url.replace(`{${p.name}}`, value);
  }
  const kind = random.next();
  let payload: string | Buffer | undefined;
  let contentType: string | undefined;
  if (!hostilePath && (kind < 0.35 || !op.body) && (queryParams.length || op.method === 'GET')) {
    // A hostile query parameter, declared or one a list may take.
    const name = queryParams.length && random.next() < 0.6 ? random.pick(queryParams).name : random.pick(EXTRA_QUERY_NAMES);
    const value = random.pick(HOSTILE_QUERY);
    query.push(`${name}=${value}`);
    if (random.next() < 0.2) query.push(`${name}=${random.pick(HOSTILE_QUERY)}`); // repeated: an array
    label += ` query.${name}=${value.slice(0, 40)}`;
  }
  if (op.method !== 'GET') {
    const shape = random.next();
    if (op.method === 'POST' && shape < 0.15) {
      const mp = random.pick(MULTIPART_CASES);
      payload = mp.payload;
      contentType = mp.contentType;
      label += ` ${mp.label}`;
    } else if (shape < 0.25) {
      const whole = random.pick(['', 'null', '[]', '"text"', '123', '{', '{"a":1}', '[{}]']);
      payload = whole;
      contentType = random.next() < 0.8 ? 'application/json' : random.pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded']);
      label += ` body=${whole || '(none)'} as ${contentType}`;
    } else {
      const base = plausible(op.body) ?? {};
      const paths = leafPaths(base);
      const target = random.pick(paths);
      const value = random.pick(HOSTILE_ANY);
      payload = toJson(setAt(base, target, value));
      contentType = 'application/json';
      label += ` body.${target.join('.') || '(root)'}=${toJson(value).slice(0, 40)}`;
    }
  }
  return {
    label: `${op.method} ${op.path}${label}`,
    request: { method: op.method as InjectOptions['method'], url: query.length ? `${url}?${query.join('&')}` : url, payload, headers: contentType ? { 'content-type': contentType } : {} },
  };
}

/** What is wrong with an answer, or undefined when it is a proper envelope (or a proper download). */
function problemOf(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode >= 500) return `HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`;
  const type = String(res.headers['content-type'] ?? '');
  // A successful download (export, template, stored file) is not JSON; any refusal must be.
  if (res.statusCode < 300 && !type.includes('json')) return undefined;
  let body: Record<string, unknown>;
  try {
    body = res.json();
  } catch {
    return `HTTP ${res.statusCode} not JSON (${type}): ${res.body.slice(0, 120)}`;
  }
  if (typeof body.status !== 'number' || typeof body.message !== 'string' || !('data' in body)) return `not the envelope: ${res.body.slice(0, 200)}`;
  if (body.status === 500) return `envelope status 500: ${res.body.slice(0, 200)}`;
  if (!isErrorKey(body.message)) return `message is not a catalogue key: ${body.message}`;
  if ((body.status === 0) !== (res.statusCode < 300)) return `HTTP ${res.statusCode} with envelope status ${body.status}`;
  return undefined;
}

let ctx: TestContext;
let tenant: TestTenant;
let token: string;
let tenantTables: string[];

/** Signs in again after an operation signed the administrator out (logout, a password reset, a lock). */
async function signIn() {
  await setAdmin(ctx.database, tenant.tenantId, tenant.adminId, { passwordHash: await hashPassword(tenant.password), enabled: true, isLock: false, failedLogins: 0, lockedUntil: null });
  token = await login(ctx.app, tenant.name, tenant.password);
}

/**
 * A fingerprint of everything the tenant has stored: per table, its row count and the sum of the rows'
 * transaction ids (xmin), which changes with any insert, update or delete.
 */
async function fingerprint(): Promise<string> {
  const parts = tenantTables.map((t) => sql`select ${t}::text as t, count(*)::text as n, coalesce(sum(xmin::text::bigint), 0)::text as x from ${sql.identifier(t)} where tenant_id = ${tenant.tenantId}`);
  const found = await rows<{ t: string; n: string; x: string }>(ctx.database, sql.join(parts, sql` union all `));
  return found.map((r) => `${r.t}:${r.n}:${r.x}`).join(' ');
}

beforeAll(async () => {
  ctx = await startTestApp();
  tenant = await seedTenant(ctx.database, 'Fuzz');
  await signIn();
  const found = await rows<{ table_name: string }>(
    ctx.database,
    sql`select table_name from information_schema.columns where column_name = 'tenant_id' and table_schema = current_schema() order by table_name`,
  );
  // Tables whose rows change on reads or sign-ins are not part of "the data" a rejected write must keep.
  tenantTables = found.map((r) => r.table_name).filter((t) => !/session|login|captcha|list_version/.test(t));
}, 120_000);
afterAll(() => ctx.close());

describe(`every operation of the OpenAPI document, with hostile input (${TEST_DB})`, () => {
  it('answers the envelope, never a 500, and a rejected write changes nothing', async () => {
    await ctx.app.ready();
    const operations = operationsOf(ctx.app.swagger() as never);
    expect(operations.length).toBeGreaterThan(150);
    const problems: string[] = [];
    let calls = 0;
    let known: string | undefined;
    for (const op of operations) {
      const random = generator(`${op.method} ${op.path}`);
      for (let i = 0; i < SAMPLES_PER_OPERATION; i++) {
        const { label, request } = hostileCase(op, random);
        const write = op.method !== 'GET';
        // Reads change nothing, so the fingerprint after the last rejected write still holds.
        const before = write ? (known ??= await fingerprint()) : '';
        const res = await ctx.app.inject({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
        calls++;
        const problem = problemOf(res);
        if (problem) problems.push(`${label}: ${problem}`);
        const envelopeStatus = res.headers['content-type']?.toString().includes('json') ? (res.json() as { status?: number }).status : 0;
        if (write && envelopeStatus !== 0 && !problem) {
          known = await fingerprint();
          if (known !== before) problems.push(`${label}: refused (${envelopeStatus}) but the tenant's data changed`);
        } else if (write) {
          known = undefined;
        }
        if (envelopeStatus === 40100) {
          await signIn();
          known = undefined;
        }
      }
    }
    expect(calls).toBe(operations.length * SAMPLES_PER_OPERATION);
    expect(problems.slice(0, 40)).toEqual([]);
  }, 600_000);
});
