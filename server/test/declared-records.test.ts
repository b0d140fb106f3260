import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '@p8/contract/upload';
import { RECORD_KINDS, recordKind } from '@p8/contract/records/catalogue';
import { nameKey } from '@p8/contract/bills/fields';
import { lineSummaryKey, RECORD_ACTIONS, recordApiPath, recordMenuName, recordTitleField, type DeclaredRecord, type RecordFieldDecl, type RecordKindDecl } from '@p8/contract/records/registry';
import { MENU_TEMPLATE, type MenuTemplate } from '../src/db/seed/menus.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, xlsx, type Caller } from './basic-fixtures.ts';
import { sampledLines, sampleLine, sampleNamedRecords, sampleRecordBody } from './record-samples.ts';

/** What a field reads back as: what the sample sent; a record it would have to name (record-refs.test.ts walks those) is left out and reads null. */
const sent = (field: RecordFieldDecl, body: Record<string, unknown>) => body[field.key] ?? (field.kind === 'record' ? null : undefined);

/*
 * Walks every declared record kind (packages/contract/src/records/catalogue.ts) through what its
 * declaration promises: the menu entry with its buttons, create / detail / list search and sort / update,
 * each unique key refused with its own message, enable and the picker, export and re-import into another
 * tenant, another tenant's ids answered as missing, delete. A new kind is covered the day it is declared.
 */

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let apiA: Caller;
let apiB: Caller;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'DeclA');
  b = await seedTenant(ctx.database, 'DeclB');
  apiA = await adminCaller(ctx, a);
  apiB = await adminCaller(ctx, b);
});
afterAll(() => ctx?.close());

const urlOf = (decl: RecordKindDecl) => `/api/admin/${decl.area}/${decl.kind}`;

describe(`declared records (${TEST_DB})`, () => {
  it('every declared kind has its screen in the menu template, with the record buttons', () => {
    const names = new Set<string>();
    const walk = (nodes: MenuTemplate[]) => {
      for (const node of nodes) {
        names.add(node.name);
        walk(node.children ?? []);
      }
    };
    walk(MENU_TEMPLATE);
    for (const decl of RECORD_KINDS) {
      expect(names.has(recordMenuName(decl)), decl.kind).toBe(true);
      for (const action of RECORD_ACTIONS) expect(names.has(`${recordMenuName(decl)}_${action}`), `${decl.kind} ${action}`).toBe(true);
    }
  });

  it.each(RECORD_KINDS.map((decl) => [decl.kind, decl] as const))('%s: lifecycle as declared', async (_kind, decl) => {
    const url = urlOf(decl);
    const title = recordTitleField(decl);
    // What it must name, made alike in both tenants (an export of one imports into the other).
    const named = await sampleNamedRecords(apiA.create, decl, `n-${decl.kind}`);
    await sampleNamedRecords(apiB.create, decl, `n-${decl.kind}`);
    const body = sampleRecordBody(decl, `w-${decl.kind}`, named);

    // A missing required field is refused before anything is written.
    for (const field of decl.fields.filter((f) => f.required)) {
      const res = await apiA.post(url, { ...body, [field.key]: undefined });
      expect(res.body.status, `${decl.kind} without ${field.key}`).toBe(40001);
    }

    const id = await apiA.create(decl.kind, { ...body, sort: 3, remark: 'walker' });
    const detail = (await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data;
    for (const field of decl.fields) expect(detail[field.key], `${decl.kind}.${field.key}`).toEqual(sent(field, body));
    expect(detail).toMatchObject({ sort: 3, remark: 'walker', enabled: true });
    if (sampledLines(decl)) expect(detail[decl.lines!.key], `${decl.kind} lines`).toMatchObject(body[decl.lines!.key] as object[]);

    // The list finds it by its searchable fields and sorts by every sortable one.
    for (const field of decl.fields.filter((f) => f.search && (f.kind === 'text' || f.kind === 'enum'))) {
      const found = await apiA.get<DeclaredRecord[]>(`${url}?${field.key}=${encodeURIComponent(String(body[field.key]))}`);
      expect(found.body.data.map((r) => r.id), `${decl.kind} search ${field.key}`).toContain(id);
    }
    for (const field of decl.fields.filter((f) => f.sortable)) {
      expect((await apiA.get(`${url}?${field.key}Sort=desc`)).body.status, `${decl.kind} sort ${field.key}`).toBe(0);
    }

    // Each unique key is refused with its own message when another record takes its value.
    const other = sampleRecordBody(decl, `o-${decl.kind}`, named);
    const otherId = await apiA.create(decl.kind, other);
    for (const key of decl.unique) {
      const clash = { ...other, ...Object.fromEntries(key.fields.map((f) => [f, body[f]])) };
      expect((await apiA.post(url, { ...sampleRecordBody(decl, `c-${decl.kind}-${key.error}`, named), ...Object.fromEntries(key.fields.map((f) => [f, body[f]])) })).body.message, `${decl.kind} create ${key.error}`).toBe(key.error);
      expect((await apiA.put(url, { id: otherId, ...clash })).body.message, `${decl.kind} update ${key.error}`).toBe(key.error);
    }
    // An update that keeps its own unique values is no clash.
    const renamed = `${body[title.key]}-2`;
    expect((await apiA.put(url, { id, [title.key]: renamed, remark: 'changed' })).body.status).toBe(0);
    expect((await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data).toMatchObject({ [title.key]: renamed, remark: 'changed' });

    // Another tenant sees none of it.
    expect((await apiB.get(`${url}/${id}`)).body.message).toBe(decl.notExist);
    expect((await apiB.put(url, { id, remark: 'taken' })).body.message).toBe(decl.notExist);
    expect((await apiB.del(url, { ids: [id] })).body.message).toBe(decl.notExist);
    expect((await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data.remark).toBe('changed');

    // Disabled records leave the picker (where other screens pick from the kind).
    expect((await apiA.put(`${url}/enable`, { ids: [otherId], enabled: false })).body.status).toBe(0);
    const picker = await apiA.get<DeclaredRecord[]>(`${url}/picker?pageSize=200`);
    if (picker.body.status === 0) {
      const ids = picker.body.data.map((r) => r.id);
      expect(ids).toContain(id);
      expect(ids).not.toContain(otherId);
    }

    // What one tenant exports, another imports as it is.
    const exported = await apiA.download(`${url}/export`);
    expect(exported.status).toBe(200);
    const rows = await readXlsx(exported.body);
    expect(rows.length).toBe(3);
    const imported = await apiB.upload<ImportResult>(`${url}/import`, exported.body);
    expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ successCount: 2, errorCount: 0 });
    const copied = (await apiB.get<DeclaredRecord[]>(`${url}?${title.key}=${encodeURIComponent(renamed)}`)).body.data;
    expect(copied).toHaveLength(1);
    // A named record is the other tenant's of the same name (its own id).
    const original = (await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data;
    for (const field of decl.fields.filter((f) => f.key !== title.key)) {
      if (field.kind === 'record') expect(copied[0][nameKey(field.key)], `${decl.kind}.${field.key} re-imported`).toEqual(original[nameKey(field.key)]);
      else expect(copied[0][field.key], `${decl.kind}.${field.key} re-imported`).toEqual(sent(field, body));
    }
    if (sampledLines(decl)) {
      // The lines too, naming the other tenant's records of the same codes.
      const copiedLines = (await apiB.get<DeclaredRecord>(`${url}/${copied[0].id}`)).body.data[decl.lines!.key] as Array<Record<string, unknown>>;
      const sentLines = (await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data[decl.lines!.key] as Array<Record<string, unknown>>;
      const shown = (lines: Array<Record<string, unknown>>) => lines.map((l) => Object.fromEntries(decl.lines!.fields.map((f) => [f.key, f.kind === 'record' ? l[f.key.replace(/Id$/, 'Name')] : l[f.key]])));
      expect(shown(copiedLines), `${decl.kind} lines re-imported`).toEqual(shown(sentLines));
    }

    expect((await apiA.del(url, { ids: [id, otherId] })).body.status).toBe(0);
    expect((await apiA.get(`${url}/${id}`)).body.message).toBe(decl.notExist);
  });

  it.each(RECORD_KINDS.filter(sampledLines).map((decl) => [decl.kind, decl] as const))('%s: its lines are kept in order, replaced by a save, bounded as declared', async (_kind, decl) => {
    const lines = decl.lines!;
    const url = urlOf(decl);
    const named = await sampleNamedRecords(apiA.create, decl, `ln-${decl.kind}`);
    const body = sampleRecordBody(decl, `l-${decl.kind}`, named);
    const [line] = body[lines.key] as Array<Record<string, unknown>>;
    const linesOf = async (id: number) => (await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data[lines.key] as Array<Record<string, unknown>>;

    // Fewer than the declared least, or more than the most, is refused and writes nothing.
    if (lines.min > 0) expect((await apiA.post(url, { ...body, [lines.key]: undefined })).body.message).toBe(lines.tooFew);
    if (lines.min > 0) expect((await apiA.post(url, { ...body, [lines.key]: [] })).body.message).toBe(lines.tooFew);
    expect((await apiA.post(url, { ...body, [lines.key]: Array.from({ length: lines.max + 1 }, () => line) })).body.message).toBe('RecordLinesTooMany');

    // Kept in the order sent; a figure left out reads null (the named record's own applies).
    const numeric = lines.fields.find((f) => f.kind === 'quantity' || f.kind === 'amount' || f.kind === 'number');
    // Lines apart where the kind declares examples (periods in order, distinct dates).
    const three = [line, { ...sampleLine(decl, `l-${decl.kind}`, named, 1), ...(numeric ? { [numeric.key]: 1 } : {}) }, { ...sampleLine(decl, `l-${decl.kind}`, named, 2), ...(numeric ? { [numeric.key]: 2 } : {}) }];
    const id = await apiA.create(decl.kind, { ...body, [lines.key]: three });
    // The list sums them up in one cell, in order, by what names each line (when a required field names a record).
    const shown = lines.fields.find((f) => f.kind === 'record' && f.required);
    if (shown) {
      const name = (await linesOf(id))[0][nameKey(shown.key)];
      const [listed] = (await apiA.get<DeclaredRecord[]>(`${url}?id=${id}`)).body.data.filter((r) => r.id === id);
      expect(listed[lineSummaryKey(lines)]).toBe([name, name, name].join(" → "));
    }
    if (numeric) expect((await linesOf(id)).map((l) => l[numeric.key])).toEqual([line[numeric.key] ?? null, 1, 2]);
    else expect(await linesOf(id)).toHaveLength(3);

    // An update without lines keeps them; with lines, they replace the stored ones.
    expect((await apiA.put(url, { id, remark: 'kept' })).body.status).toBe(0);
    expect(await linesOf(id)).toHaveLength(3);
    expect((await apiA.put(url, { id, [lines.key]: [three[2]] })).body.status).toBe(0);
    expect(await linesOf(id)).toHaveLength(1);
    if (numeric) expect((await linesOf(id))[0][numeric.key]).toBe(2);
    if (lines.min > 0) expect((await apiA.put(url, { id, [lines.key]: [] })).body.message).toBe(lines.tooFew);
    else expect((await apiA.put(url, { id, [lines.key]: [] })).body.status).toBe(0);

    // A record a line names: missing is refused with the line's number; named, it cannot be deleted.
    const ref = lines.fields.find((f) => f.kind === 'record' && f.required);
    if (ref) {
      const res = await apiA.put(url, { id, [lines.key]: [line, { ...line, [ref.key]: 999_999_999 }] });
      expect(res.body.message).toBe(recordKind(ref.ref!)!.notExist);
      expect(JSON.stringify(res.body)).toContain('2');
      expect(await linesOf(id)).toHaveLength(1);
      expect((await apiA.del(`/api${recordApiPath(recordKind(ref.ref!)!)}`, { ids: [named[ref.ref!]] })).body.message).toBe(recordKind(ref.ref!)!.inUse);
    }
    // Deleted with its record.
    expect((await apiA.del(url, { ids: [id] })).body.status).toBe(0);
  });

  type TreeNode = DeclaredRecord & { parentId: number | null; level: number; children?: TreeNode[] };
  const trees = RECORD_KINDS.filter((decl) => decl.tree);
  it('at least one declared kind is a tree (material categories)', () => {
    expect(trees.map((d) => d.kind)).toContain('category');
  });

  it.each(trees.map((decl) => [decl.kind, decl] as const))('%s: a tree as declared — levels, moves, siblings, deletes, the nested tree, Excel by path', async (_kind, decl) => {
    const tree = decl.tree!;
    const url = urlOf(decl);
    const title = recordTitleField(decl).key;
    const named = await sampleNamedRecords(apiA.create, decl, `t-${decl.kind}`);
    await sampleNamedRecords(apiB.create, decl, `t-${decl.kind}`);
    const body = (seed: string, parentId: number | null = null) => ({ ...sampleRecordBody(decl, `${seed}-${decl.kind}`, named), parentId });
    const read = async (id: number) => (await apiA.get<TreeNode>(`${url}/${id}`)).body.data;

    // A chain down to the deepest level; one more below is refused, and writes nothing.
    const chain: number[] = [];
    for (let level = 1; level <= tree.maxLevel; level++) chain.push(await apiA.create(decl.kind, body(`tl${level}`, chain.at(-1) ?? null)));
    const deepest = await read(chain.at(-1)!);
    expect(deepest).toMatchObject({ level: tree.maxLevel, parentId: chain.at(-2) ?? null });
    if (chain.length > 1) expect(deepest.parentName).toBe((await read(chain.at(-2)!))[title]);
    expect((await apiA.post(url, body('tdeep', chain.at(-1)!))).body.message).toBe(tree.tooDeep);
    expect((await apiA.post(url, body('tnone', 999_999_999))).body.message).toBe(decl.notExist);

    // The nested tree, each record below its parent with its level; `enabled` filters the records.
    const nested = (await apiA.get<TreeNode[]>(`${url}/tree`)).body.data;
    let node = nested.find((n) => n.id === chain[0]);
    for (const [index, id] of chain.entries()) {
      expect(node, `${decl.kind} tree level ${index + 1}`).toMatchObject({ id, level: index + 1 });
      node = node?.children?.find((n) => n.id === chain[index + 1]);
    }
    expect((await apiA.put(`${url}/enable`, { ids: [chain[0]], enabled: false })).body.status).toBe(0);
    expect((await apiA.get<TreeNode[]>(`${url}/tree?enabled=true`)).body.data.some((n) => n.id === chain[0])).toBe(false);
    expect((await apiA.get<TreeNode[]>(`${url}/tree?enabled=false`)).body.data.map((n) => n.id)).toEqual([chain[0]]);
    expect((await apiA.put(`${url}/enable`, { ids: [chain[0]], enabled: true })).body.status).toBe(0);

    // A title is unique among siblings only (declared with the parent in the key).
    const siblingKey = decl.unique.find((key) => key.fields.includes('parentId'));
    if (siblingKey && chain.length > 1) {
      const taken = (await read(chain[1]))[title];
      expect((await apiA.post(url, { ...body('tsib', chain[0]), [title]: taken })).body.message).toBe(siblingKey.error);
      const elsewhere = await apiA.create(decl.kind, { ...body('tsib2'), [title]: taken });
      // Moving it under that parent clashes too; moving back to the top is fine.
      expect((await apiA.put(url, { id: elsewhere, parentId: chain[0] })).body.message).toBe(siblingKey.error);
      expect((await apiA.del(url, { ids: [elsewhere] })).body.status).toBe(0);
    }

    // A parent is never the record itself or below it; a move carries the subtree's levels, and must fit.
    expect((await apiA.put(url, { id: chain[0], parentId: chain[0] })).body.message).toBe('ParentCannotBeSelf');
    if (chain.length > 1) expect((await apiA.put(url, { id: chain[0], parentId: chain.at(-1) })).body.message).toBe('ParentCannotBeSelf');
    const otherRoot = await apiA.create(decl.kind, body('troot'));
    if (chain.length > 1) {
      // The chain below its top fits under another top-level record; under a record one level lower it does not.
      expect((await apiA.put(url, { id: chain[1], parentId: otherRoot })).body.status).toBe(0);
      expect(await Promise.all(chain.slice(1).map(async (id) => (await read(id)).level))).toEqual(chain.slice(1).map((_, i) => i + 2));
      const lower = await apiA.create(decl.kind, body('tlower', otherRoot));
      expect((await apiA.put(url, { id: chain[1], parentId: lower })).body.message).toBe(tree.tooDeep);
      // Back to the top: every level one up.
      expect((await apiA.put(url, { id: chain[1], parentId: null })).body.status).toBe(0);
      expect(await Promise.all(chain.slice(1).map(async (id) => (await read(id)).level))).toEqual(chain.slice(1).map((_, i) => i + 1));
      expect((await apiA.put(url, { id: chain[1], parentId: chain[0] })).body.status).toBe(0);
      expect((await apiA.del(url, { ids: [lower] })).body.status).toBe(0);

      // A record whose children stay is not deleted; deleted together, they go.
      expect((await apiA.del(url, { ids: [chain[0]] })).body.message).toBe(tree.hasChildren);
    }

    // What one tenant exports, another imports as it is: the parents by their paths.
    const exported = await apiA.download(`${url}/export`);
    const imported = await apiB.upload<ImportResult>(`${url}/import`, exported.body);
    expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ successCount: chain.length + 1, errorCount: 0 });
    // (B holds what other tests imported too: its roots of A's titles are compared.)
    const original = (await apiA.get<TreeNode[]>(`${url}/tree`)).body.data;
    const copied = (await apiB.get<TreeNode[]>(`${url}/tree`)).body.data.filter((n) => original.some((o) => o[title] === n[title]));
    const shape = (nodes: TreeNode[]): unknown => nodes.map((n) => ({ [title]: n[title], level: n.level, children: shape(n.children ?? []) }));
    expect(shape(copied)).toEqual(shape(original));

    // An import names a parent by its path or by a title only one record has; another is refused as missing.
    const [header] = await readXlsx(exported.body);
    const at = (zh: string) => header.findIndex((h) => String(h).replace(/^\*/, '').startsWith(zh));
    const titleAt = at((recordTitleField(decl).excelTitle ?? recordTitleField(decl).label).zh);
    const parentAt = at(tree.parentLabel.zh);
    const rowOf = (name: string, parent: string) => header.map((_, i) => (i === titleAt ? name : i === parentAt ? parent : ''));
    const top = (await read(chain[0]))[title] as string;
    const more = await apiB.upload<ImportResult>(`${url}/import`, await xlsx(header.map(String), [rowOf(`${top}-a`, top), rowOf(`${top}-b`, `${top} / ${top}-a`), rowOf(`${top}-c`, 'no-such-parent')]));
    expect(more.body.data, JSON.stringify(more.body)).toMatchObject({ successCount: tree.maxLevel > 2 ? 2 : 1, errorCount: tree.maxLevel > 2 ? 1 : 2 });
    expect(JSON.stringify(more.body.data)).toContain(decl.notExist);

    expect((await apiA.del(url, { ids: [...chain, otherRoot] })).body.status).toBe(0);
  });

  const generating = RECORD_KINDS.filter((decl) => decl.generatedCode);
  it('at least one declared kind takes generated codes (processes)', () => {
    expect(generating.map((d) => d.kind)).toContain('process');
  });

  it.each(generating.map((decl) => [decl.kind, decl] as const))('%s: a code left empty is generated from the tenant prefix, added or imported', async (_kind, decl) => {
    const url = urlOf(decl);
    const { field, prefix } = decl.generatedCode!;
    const codeOf = async (id: number) => (await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data[field];
    const tenant = await seedTenant(ctx.database, 'DeclGen');
    const api = await adminCaller(ctx, tenant);
    const named = await sampleNamedRecords(api.create, decl, `gn-${decl.kind}`);
    const create = (tag: string, code: unknown) => api.create(decl.kind, { ...sampleRecordBody(decl, `g-${decl.kind}-${tag}`, named), [field]: code });
    const read = async (id: number) => (await api.get<DeclaredRecord>(`${url}/${id}`)).body.data[field];

    // Left out or left empty: the declared prefix and the tenant's own counter.
    expect(await read(await create('1', undefined))).toBe(`${prefix}000001`);
    expect(await read(await create('2', ''))).toBe(`${prefix}000002`);
    // Typed: kept; a typed code the counter reaches later is skipped, never repeated.
    expect(await read(await create('3', `${prefix}000004`))).toBe(`${prefix}000004`);
    expect(await read(await create('4', ' '))).toBe(`${prefix}000003`);
    expect(await read(await create('5', undefined))).toBe(`${prefix}000005`);
    // Another tenant counts on its own.
    const namedA = await sampleNamedRecords(apiA.create, decl, `gn-${decl.kind}`);
    expect(await codeOf(await apiA.create(decl.kind, { ...sampleRecordBody(decl, `g-${decl.kind}-a`, namedA), [field]: '' }))).toMatch(new RegExp(`^${prefix}\\d{6}$`));

    // The tenant's prefix from the system settings, where every such kind is listed.
    const settings = await api.get<{ codePrefixes: Record<string, string> }>('/api/admin/system/setting');
    expect(settings.body.data.codePrefixes[decl.kind]).toBe(prefix);
    expect((await api.put('/api/admin/system/setting', { codePrefixes: { [decl.kind]: 'X-' } })).body.status).toBe(0);
    expect(await read(await create('6', ''))).toBe('X-000006');

    // An import row without a code gets one too.
    const title = recordTitleField(decl);
    const exported = await api.download(`${url}/export?${title.key}=${encodeURIComponent(`g-${decl.kind}-1-`)}`);
    const [header, row] = await readXlsx(exported.body);
    const column = (f: RecordKindDecl['fields'][number]) => header.findIndex((h) => String(h).replace(/^\*/, '') === (f.excelTitle ?? f.label).zh);
    const codeAt = column(decl.fields.find((f) => f.key === field)!);
    const titleAt = column(title);
    expect(codeAt).toBeGreaterThanOrEqual(0);
    const blank = row.map((cell, i) => (i === codeAt ? '' : i === titleAt ? `${cell}-imported` : cell));
    const imported = await api.upload<ImportResult>(`${url}/import`, await xlsx(header.map(String), [blank]));
    expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ successCount: 1, errorCount: 0 });
    const [copy] = (await api.get<DeclaredRecord[]>(`${url}?${title.key}=${encodeURIComponent(`${row[titleAt]}-imported`)}`)).body.data;
    expect(copy[field]).toBe('X-000007');

    // A code cannot be emptied afterwards: an update still requires one.
    expect((await api.put(url, { id: copy.id, [field]: '' })).body.status).toBe(40001);
  });

  it('a process refuses a negative piece rate or standard hours, and keeps their decimals', async () => {
    const url = '/api/admin/basic/process';
    expect((await apiA.post(url, { code: 'P-NEG', name: 'neg', pieceRate: -1 })).body.message).toBe('NumberMustNotBeNegative');
    expect((await apiA.post(url, { code: 'P-NEG', name: 'neg', standardHours: -0.5 })).body.message).toBe('NumberMustNotBeNegative');
    const id = await apiA.create('process', { code: 'P-010', name: '车削', pieceRate: 0.125, standardHours: 0.75 });
    expect((await apiA.get<DeclaredRecord>(`${url}/${id}`)).body.data).toMatchObject({ code: 'P-010', name: '车削', pieceRate: 0.125, standardHours: 0.75 });
  });
});
