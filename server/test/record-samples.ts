import type { RecordKindDecl } from '@p8/contract/records/registry';

/**
 * A valid create body of a declared record kind, built from its declaration: `seed` makes its text fields
 * (and so its unique keys) differ from every other sample's.
 */
export function sampleRecordBody(decl: RecordKindDecl, seed: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of decl.fields) {
    switch (field.kind) {
      case 'text':
      case 'textarea':
        body[field.key] = `${seed}-${field.key}`;
        break;
      case 'number':
      case 'quantity':
      case 'amount':
        body[field.key] = 12.5;
        break;
      case 'enum':
        body[field.key] = field.options![0].value;
        break;
      case 'values':
        body[field.key] = [`${seed}-a`, `${seed}-b`];
        break;
    }
  }
  return body;
}
