import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import zh from '../../../../locales/zh/system.ts';
import en from '../../../../locales/en/system.ts';

/**
 * Every kind of record and every step the server writes to the audit log has a name on the log screen in
 * both languages — a new one showed as its raw key (`fee type`, `fundAccount`, `submit`). Walks the
 * server's sources for the literal entity and action names of `ctx.audit(...)` calls and of the basic
 * records' definitions (`entity: '…'`); bill entries are named by the bill registry, declared record kinds
 * by their declaration (index.tsx).
 */
const SERVER = path.resolve(import.meta.dirname, '../../../../../../server/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' || e.name === 'seed' ? [] : sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

const texts = sources(SERVER).map((file) => readFileSync(file, 'utf8'));
const found = (pattern: RegExp) => [...new Set(texts.flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1])))].sort();

describe('audit log names', () => {
  const entities = found(/\bentity: '([^']+)'/g);
  const calls = texts.flatMap((text) => [...text.matchAll(/\baudit\(\{([^;]*?)\}\);/gs)].map((m) => m[1]));
  // Literal actions of audit calls, including both sides of `cond ? 'a' : 'b'`.
  const actions = [...new Set(calls.flatMap((call) => [...(/\baction: ([^,]+),/.exec(call)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1])))].sort();

  it('finds what the server writes', () => {
    expect(entities).toEqual(expect.arrayContaining(['role', 'material', 'warehouse']));
    expect(actions).toEqual(expect.arrayContaining(['create', 'import', 'enable', 'disable', 'abandon']));
  });

  it('names every entity in Chinese and English', () => {
    expect(entities.filter((e) => !(e in zh.audit.entities) || !(e in en.audit.entities))).toEqual([]);
  });

  it('names every declared record kind and its fields in both languages by its declaration', () => {
    for (const decl of RECORD_KINDS) {
      for (const label of [decl.noun, ...decl.fields.map((f) => f.label)]) expect(label.zh && label.en, decl.kind).toBeTruthy();
    }
  });

  it('names every action in Chinese and English', () => {
    expect(actions.filter((a) => !(a in zh.audit.actions) || !(a in en.audit.actions))).toEqual([]);
  });
});
