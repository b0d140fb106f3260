import { describe, expect, it } from 'vitest';
import { brandSchemas, materialSchemas, partnerSchemas } from './basic.ts';
import { fundAccountCreateSchema } from './finance.ts';
import { RECORD_KINDS } from './records/catalogue.ts';

/** The message of the first issue a schema raises for a value. */
function firstMessage(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) {
  return schema.safeParse(value).error?.issues[0]?.message;
}

describe('a name', () => {
  it('too long is refused as too long, not as missing', () => {
    const long = 'n'.repeat(101);
    expect(firstMessage(brandSchemas.create.shape.name, long)).toBe('NameTooLong');
    expect(firstMessage(fundAccountCreateSchema.shape.name, long)).toBe('NameTooLong');
    for (const kind of RECORD_KINDS) {
      const field = kind.fields.find((f) => f.key === 'name');
      if (field) expect(firstMessage(field.schema, long), kind.kind).toBe('NameTooLong');
    }
  });

  it('missing or blank is still "please enter the name"', () => {
    expect(firstMessage(brandSchemas.create.shape.name, '   ')).toBe('PleaseInputName');
    expect(firstMessage(brandSchemas.create.shape.name, undefined)).toBe('PleaseInputName');
  });
});

describe('a code', () => {
  it('too long is refused as too long, not as missing', () => {
    const long = 'c'.repeat(51);
    for (const kind of RECORD_KINDS) {
      const field = kind.fields.find((f) => f.key === 'code');
      if (field) expect(firstMessage(field.schema, long), kind.kind).toBe('CodeTooLong');
    }
    expect(firstMessage(materialSchemas.create.shape.code, long)).toBe('CodeTooLong');
    expect(firstMessage(partnerSchemas.create.shape.code, long)).toBe('CodeTooLong');
  });
});
