import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { CheckedZip } from './zip-guard.ts';

/*
 * exceljs' streaming reader with two bugs worked around.
 *
 * Text: its XML step Its XML step (lib/utils/parse-sax.js) decodes
 * every chunk of an unzipped worksheet on its own, so a Chinese character (three bytes in UTF-8) that
 * straddles two chunks becomes U+FFFD replacement characters: a 100,000-row import of the product's own
 * template read '生产' as '���产' in 16 rows and refused them. The fixed step below keeps a StringDecoder
 * across chunks. exceljs binds that step when its modules load, so this file loads a private copy of
 * exceljs with the fixed step in place, whatever else in the process loaded exceljs before; only the
 * reader comes from it (writing has no such step).
 *
 * Lost parts: it walks the zip once in stored order through unzipper, pausing the entry stream between
 * entries, and a paused unzipper stream can drop the entries still to come (exceljs issue 3064). exceljs
 * itself writes the worksheet first and `xl/workbook.xml` last, so under load a valid file sometimes lost
 * its workbook part and failed with a TypeError deep in the reader, which the import answered as "not an
 * xlsx" — an intermittent refusal of honest files. `firstWorksheetRows` does not walk the zip at all: the
 * zip guard has already read the central directory, so the reader's part parsers are fed the rels, the
 * workbook, the shared strings and the styles first, then the one worksheet, each opened on its own.
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

/** The part parsers of exceljs' WorkbookReader (4.4): internal, so named here and pinned by the lock file. */
interface WorkbookParts {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, sheetNo: string): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/** The zip entry of the workbook's first sheet (in tab order), or the lowest-numbered worksheet part. */
function firstWorksheetName(reader: WorkbookParts, names: string[]): string | undefined {
  const first = reader.model?.sheets?.[0];
  const target = first && reader.workbookRels?.find((rel) => rel.Id === first.rId)?.Target;
  const named = target && (target.startsWith('/') ? target.slice(1) : `xl/${target}`);
  if (named && WORKSHEET.test(named) && names.includes(named)) return named;
  const numbered = names.filter((name) => WORKSHEET.test(name));
  return numbered.sort((a, b) => Number(WORKSHEET.exec(a)![1]) - Number(WORKSHEET.exec(b)![1]))[0];
}

/**
 * The rows of the first worksheet of a checked .xlsx, streamed: only the shared strings and styles are held,
 * the worksheet is inflated and parsed as its rows are asked for. No worksheet at all reads as no rows.
 */
export async function* firstWorksheetRows(zip: CheckedZip, options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>): AsyncGenerator<ExcelJS.Row> {
  const reader = new WorkbookReader(Readable.from([]), options) as unknown as WorkbookParts;
  const opened: Readable[] = [];
  const part = (name: string) => {
    const stream = zip.open(name);
    if (stream) opened.push(stream);
    return stream;
  };
  try {
    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await reader._parseRels(rels);
    const workbook = part('xl/workbook.xml');
    if (workbook) await reader._parseWorkbook(workbook);
    const strings = part('xl/sharedStrings.xml');
    // With the strings cached, the parser yields nothing: it fills the reader's table.
    if (strings) for await (const _ of reader._parseSharedStrings(strings));
    const styles = part('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);
    const name = firstWorksheetName(reader, zip.names);
    const worksheet = name && part(name);
    if (!worksheet) return;
    for (const { value: sheet } of reader._parseWorksheet(worksheet, WORKSHEET.exec(name)![1])) {
      yield* sheet as unknown as AsyncIterable<ExcelJS.Row>;
    }
  } finally {
    for (const stream of opened) stream.destroy();
  }
}
