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
        // A whole number where the declared schema takes only those (days, counts).
        body[field.key] = field.schema.safeParse(12.5).success ? 12.5 : 12;
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
