import { appendFileSync } from 'node:fs';
import type { Logger } from 'drizzle-orm';

/**
 * Records the text of every statement the server sends to the database while it is on, for the check that
 * every statement touching a tenant table names its tenant (server/test/statement-tenancy.test.ts,
 * docs/operations.md "Distributing by tenant"). Off by default, and then it costs one function call per
 * statement (drizzle calls its logger anyway). `P8_RECORD_STATEMENTS=<file>` turns it on for a whole
 * process and appends each distinct statement to that file as it is first seen, one JSON string a line
 * (`%p` in the name becomes the process id: one file per process of a test run, whose workers are killed).
 */
let recording: Set<string> | undefined;
/** The file of P8_RECORD_STATEMENTS, when set. */
const file = process.env.P8_RECORD_STATEMENTS?.replace('%p', String(process.pid));

function record(text: string): void {
  if (!recording || recording.has(text)) return;
  recording.add(text);
  if (file) appendFileSync(file, `${JSON.stringify(text)}\n`);
}

/** Drizzle's logger: what every query through Drizzle passes (both drivers, inside and outside transactions). */
export const statementLogger: Logger = {
  logQuery(query) {
    record(query);
  },
};

/** A statement sent past Drizzle (the prepared statements of `statementRows`). */
export function recordStatement(text: string): void {
  record(text);
}

/** Starts recording (afresh); `stopRecording` returns the distinct statements seen since. */
export function startRecording(): void {
  recording = new Set();
}

export function stopRecording(): string[] {
  const seen = [...(recording ?? [])];
  recording = undefined;
  return seen;
}

if (file) startRecording();
