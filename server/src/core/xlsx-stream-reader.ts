import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type ExcelJS from 'exceljs';

/*
 * exceljs' streaming reader with its one text bug fixed. Its XML step (lib/utils/parse-sax.js) decodes
 * every chunk of an unzipped worksheet on its own, so a Chinese character (three bytes in UTF-8) that
 * straddles two chunks becomes U+FFFD replacement characters: a 100,000-row import of the product's own
 * template read '生产' as '���产' in 16 rows and refused them. The fixed step below keeps a StringDecoder
 * across chunks. exceljs binds that step when its modules load, so this file loads a private copy of
 * exceljs with the fixed step in place, whatever else in the process loaded exceljs before; only the
 * reader comes from it (writing has no such step).
 */

const require = createRequire(import.meta.url);
const exceljsMain = require.resolve('exceljs');
const exceljsRoot = path.dirname(exceljsMain) + path.sep;
const parseSaxPath = require.resolve('exceljs/lib/utils/parse-sax.js');
const { SaxesParser } = createRequire(exceljsMain)('saxes') as { SaxesParser: new () => SaxParser };

interface SaxParser {
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'opentag' | 'text' | 'closetag', listener: (value: unknown) => void): void;
  write(text: string): void;
}

type SaxEvent = { eventType: 'opentag' | 'text' | 'closetag'; value: unknown };

/** parse-sax.js as exceljs has it, with the decoding kept across chunks. */
async function* parseSax(iterable: AsyncIterable<Buffer | string>): AsyncGenerator<SaxEvent[]> {
  const parser = new SaxesParser();
  const decoder = new StringDecoder('utf8');
  let error: Error | undefined;
  parser.on('error', (e) => (error = e));
  let events: SaxEvent[] = [];
  for (const eventType of ['opentag', 'text', 'closetag'] as const) parser.on(eventType, (value) => events.push({ eventType, value }));
  const feed = (text: string) => {
    parser.write(text);
    if (error) throw error;
    const out = events;
    events = [];
    return out;
  };
  for await (const chunk of iterable) yield feed(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  const rest = decoder.end();
  if (rest) yield feed(rest);
}

function loadPatchedExceljs(): typeof ExcelJS {
  for (const key of Object.keys(require.cache)) if (key.startsWith(exceljsRoot)) delete require.cache[key];
  require.cache[parseSaxPath] = { id: parseSaxPath, filename: parseSaxPath, loaded: true, exports: parseSax } as unknown as NodeJS.Module;
  const patched = require('exceljs') as typeof ExcelJS;
  // Later plain requires of exceljs get a fresh copy of their own, not this one.
  for (const key of Object.keys(require.cache)) if (key.startsWith(exceljsRoot)) delete require.cache[key];
  return patched;
}

/** exceljs' streaming WorkbookReader, reading multi-byte text correctly across chunk boundaries. */
export const WorkbookReader: typeof ExcelJS.stream.xlsx.WorkbookReader = loadPatchedExceljs().stream.xlsx.WorkbookReader;
