import { describe, expect, it } from 'vitest';
import { BILL_TYPES } from '../bills/catalogue.ts';
import { headerFields, lineFields } from '../bills/registry.ts';
import { isErrorKey } from '../errors.ts';
import { RECORD_KINDS } from './catalogue.ts';
import { RECORD_REFS } from './references.ts';

/**
 * The walk of every field that names a record, in every bill type: it names a referable kind, its parent (for a
 * kind that belongs to one) by a field of that parent's kind, and every referable kind says what refuses a
 * missing one. A bill type declared tomorrow is held to it the day it appears.
 */
const everyField = BILL_TYPES.flatMap((decl) => [
  ...headerFields(decl).map((field) => ({ decl, part: 'header' as const, field })),
  ...lineFields(decl).map((field) => ({ decl, part: 'line' as const, field })),
]);

describe('record references', () => {
  it('every declared record kind is referable by its own declaration', () => {
    for (const decl of RECORD_KINDS) expect(RECORD_REFS[decl.kind], decl.kind).toMatchObject({ label: decl.noun, missing: decl.notExist, usage: decl.kind });
  });

  it('every referable kind refuses a missing record with a catalogued key, and a parent is referable', () => {
    for (const [ref, decl] of Object.entries(RECORD_REFS)) {
      expect(isErrorKey(decl.missing), `${ref}: ${decl.missing}`).toBe(true);
      if (decl.parent) expect(RECORD_REFS[decl.parent], `${ref}'s parent ${decl.parent}`).toBeDefined();
    }
  });

  it.each(everyField.filter(({ field }) => field.kind === 'record' || field.ref).map(({ decl, part, field }) => [`${decl.type} ${part} ${field.key}`, decl, part, field] as const))(
    '%s names a referable kind (and its parent by a field of the parent kind)',
    (_name, decl, part, field) => {
      expect(field.kind).toBe('record');
      expect(RECORD_REFS[field.ref!], `ref ${field.ref}`).toBeDefined();
      const parent = RECORD_REFS[field.ref!].parent;
      if (!parent) return expect(field.within).toBeUndefined();
      // The parent is named by a field of the same values, else of the header.
      const same = (part === 'line' ? lineFields(decl) : headerFields(decl)).find((f) => f.key === field.within);
      const parentField = same ?? headerFields(decl).find((f) => f.key === field.within);
      expect(parentField, `${field.key} within ${field.within}`).toBeDefined();
      expect(parentField!.kind === 'record' && parentField!.ref).toBe(parent);
    },
  );

  it.each(everyField.filter(({ field }) => field.ref === 'material' || field.ofLines).map(({ decl, part, field }) => [`${decl.type} ${part} ${field.key}`, part, field] as const))(
    '%s is a line\'s own material, or names one of its bill\'s lines by its material (the only two ways the kit shows a material)',
    (_name, part, field) => {
      if (field.key === 'materialId') return expect(field.ofLines).toBeUndefined();
      expect(part).toBe('line');
      expect(field.ref).toBe('material');
      expect(field.ofLines, `${field.key} needs ofLines`).toBeDefined();
      expect(isErrorKey(field.ofLines!.refusal), field.ofLines!.refusal).toBe(true);
      expect(field.ofLines!.lines.values.length).toBeGreaterThan(0);
    },
  );
});
