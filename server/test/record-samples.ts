import { recordKind } from '@p8/contract/records/catalogue';
import { everyRecordField, type RecordFieldDecl, type RecordKindDecl } from '@p8/contract/records/registry';

/** The ids of the records a sample names, by kind (`process` → the id of a process made for it). */
export type SampleNamed = Readonly<Record<string, number>>;

/** A sample value of a field: text from the seed, a number its schema takes, an enum's first choice, a named record from `named`. */
export function sampleValue(field: RecordFieldDecl, seed: string, named: SampleNamed, index = 0): unknown {
  // A field whose values have a shape of their own (a date, a clock time) declares valid ones.
  if (field.examples?.length) return field.examples[index % field.examples.length];
  switch (field.kind) {
    case 'text':
    case 'textarea':
      return `${seed}-${field.key}`;
    case 'number':
    case 'quantity':
    case 'amount':
      // A whole number where the declared schema takes only those (days, counts).
      return field.schema.safeParse(12.5).success ? 12.5 : 12;
    case 'enum':
      return field.options![0].value;
    case 'boolean':
      // Not the usual default (false), so that reading it back proves it was stored.
      return true;
    case 'values':
      return [`${seed}-a`, `${seed}-b`];
    case 'record':
      // Only a required one (record-refs.test.ts walks the others), from the records made for the sample.
      if (!field.required) return undefined;
      if (named[field.ref!] === undefined) throw new Error(`a sample of a field naming a ${field.ref} needs one made first (sampleNamedRecords)`);
      return named[field.ref!];
  }
}

/**
 * A valid create body of a declared record kind, built from its declaration: `seed` makes its text fields
 * (and so its unique keys) differ from every other sample's. A kind with lines gets as many lines as it must
 * keep (one at least); the records its required fields name come from `named` (`sampleNamedRecords`).
 */
export function sampleRecordBody(decl: RecordKindDecl, seed: string, named: SampleNamed = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // A field of a unique key that declares examples (an exchange rate's day) takes one by the seed, so that
  // samples of different seeds do not clash.
  const keyed = new Set(decl.unique.flatMap((u) => u.fields));
  for (const field of decl.fields) {
    const value = sampleValue(field, seed, named, keyed.has(field.key) ? seedIndex(seed) : 0);
    if (value !== undefined) body[field.key] = value;
  }
  if (decl.lines && sampledLines(decl)) body[decl.lines.key] = Array.from({ length: Math.max(1, decl.lines.min) }, (_, index) => sampleLine(decl, seed, named, index));
  return body;
}

/** A whole number from a seed (the same seed, the same number). */
function seedIndex(seed: string): number {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

/**
 * Line `index` of a kind with lines, its fields sampled (those naming a record `named` lacks left out; a field
 * declaring examples takes the index-th, so that lines differ where the kind needs them apart).
 */
export function sampleLine(decl: RecordKindDecl, seed: string, named: SampleNamed = {}, index = 0): Record<string, unknown> {
  const fields = decl.lines!.fields.filter((f) => f.kind !== 'record' || named[f.ref!] !== undefined);
  return Object.fromEntries(fields.map((f) => [f.key, sampleValue(f, seed, named, index)]).filter(([, v]) => v !== undefined));
}

/**
 * Whether a sample of `decl` has lines: unless the kind may be without them and they name a record that is not
 * a declared kind (a team's members are staff, made apart: tests of their own cover them).
 */
export const sampledLines = (decl: RecordKindDecl) => !!decl.lines && (decl.lines.min > 0 || decl.lines.fields.every((f) => f.kind !== 'record' || !f.required || recordKind(f.ref!)));

/** The declared kinds a sample of `decl` must name: those its required fields (its sampled lines' too) name. */
export const sampleNeeds = (decl: RecordKindDecl) =>
  [...new Set((sampledLines(decl) ? everyRecordField(decl) : decl.fields).filter((f) => f.kind === 'record' && f.required).map((f) => f.ref!))];

/**
 * Makes, through `create`, one record of each declared kind a sample of `decl` must name (and what those need
 * in turn), from `seed` alone: the same seed makes the same records (codes and names) in any tenant, so an
 * export of one tenant imports into another where they were made too.
 */
export async function sampleNamedRecords(create: (kind: string, body: Record<string, unknown>) => Promise<number>, decl: RecordKindDecl, seed: string): Promise<SampleNamed> {
  const named: Record<string, number> = {};
  for (const ref of sampleNeeds(decl)) {
    const refDecl = recordKind(ref);
    if (!refDecl) throw new Error(`a sample of ${decl.kind} names a ${ref}, which is not a declared kind: make it by hand`);
    const refSeed = `${seed}-${ref}`;
    named[ref] = await create(ref, sampleRecordBody(refDecl, refSeed, await sampleNamedRecords(create, refDecl, refSeed)));
  }
  return named;
}
