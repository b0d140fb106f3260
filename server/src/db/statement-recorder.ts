import { writeFileSync } from 'node:fs';
import type { Logger } from 'drizzle-orm';

/**
 * Records the text of every statement the server sends to the database while it is on, for the check that
 * every statement touching a tenant table names its tenant (server/test/statement-tenancy.test.ts,
 * docs/operations.md "Distributing by tenant"). Off by default, and then it costs one function call per
 * statement (drizzle calls its logger anyway). `P8_RECORD_STATEMENTS=<file>` turns it on for a whole
 * process and writes the distinct statements to that file, one JSON string a line, when the process exits.
 */
let recording: Set<string> | undefined;

/** Drizzle's logger: what every query through Drizzle passes (both drivers, inside and outside transactions). */
export const statementLogger: Logger = {
  logQuery(query) {
    recording?.add(query);
  },
};

/** A statement sent past Drizzle (the prepared statements of `statementRows`). */
export function recordStatement(text: string): void {
  recording?.add(text);
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

const file = process.env.P8_RECORD_STATEMENTS;
if (file) {
  startRecording();
  process.on('exit', () => writeFileSync(file, [...(recording ?? [])].map((text) => JSON.stringify(text)).join('\n') + '\n'));
}
