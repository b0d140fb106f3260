import { deflateRawSync } from 'node:zlib';

/** One entry of a hand-built zip: its bytes, and optionally the unpacked size its headers claim instead of the true one. */
export interface ZipFixtureEntry {
  name: string;
  data: Buffer;
  declaredSize?: number;
}

/**
 * A zip built byte by byte (deflated entries, local headers back to back, central directory, end record),
 * so tests can build what no honest writer produces: bombs, and directories that lie about sizes.
 */
export function zipOf(entries: ZipFixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const packed = deflateRawSync(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a minimal one-sheet .xlsx around a worksheet of our own. */
export function xlsxParts(sheet: ZipFixtureEntry): ZipFixtureEntry[] {
  const part = (name: string, xml: string) => ({ name, data: Buffer.from(XML + xml) });
  return [
    part(
      '[Content_Types].xml',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    part('_rels/.rels', `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    part('xl/workbook.xml', `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    part('xl/_rels/workbook.xml.rels', `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    sheet,
  ];
}

/** An .xlsx whose only worksheet is `xml`; `declaredSize` makes its headers claim another unpacked size. */
export function xlsxWithSheet(xml: Buffer, declaredSize?: number): Buffer {
  return zipOf(xlsxParts({ name: 'xl/worksheets/sheet1.xml', data: xml, declaredSize }));
}

/** Worksheet XML of `rows` rows of inline strings: `<row r="n"><c r="An" t="inlineStr"><is><t>…</t></is></c></row>`. */
export function sheetXml(rows: number, cell: (row: number) => string = (row) => `row ${row}`): Buffer {
  const parts = [`${XML}<worksheet xmlns="${MAIN}"><sheetData>`];
  parts.push('<row r="1"><c r="A1" t="inlineStr"><is><t>名称</t></is></c></row>');
  for (let r = 2; r <= rows + 1; r++) parts.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${cell(r)}</t></is></c></row>`);
  parts.push('</sheetData></worksheet>');
  return Buffer.from(parts.join(''));
}
