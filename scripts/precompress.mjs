#!/usr/bin/env node
/**
 * Part of the web build (`npm run build -w web`): writes a brotli (`.br`) and a gzip (`.gz`) copy beside
 * every compressible file of the build, at the strongest settings, once. The server sends them by the
 * request's Accept-Encoding (@fastify/static `preCompressed`) and never compresses a static file per
 * request. A copy that would not be smaller than its file is not written.
 *
 *   node scripts/precompress.mjs web/dist
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts of the build are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|xml|ico|wasm|map)$/;
/** Below this a compressed copy saves less than its extra headers and file lookups cost. */
export const MIN_BYTES = 1024;

async function filesUnder(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(file)));
    else if (COMPRESSIBLE.test(entry.name)) found.push(file);
  }
  return found;
}

/** Compresses every compressible file under `dir`; resolves to the byte totals, for the build log. */
export async function precompressDir(dir) {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  const files = await filesUnder(dir);
  // zlib's async calls run on libuv's thread pool: a few at a time keep every core busy.
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if ((await stat(file)).size < MIN_BYTES) continue;
      const raw = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < raw.length) await writeFile(`${file}.br`, br);
      if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
      totals.files += 1;
      totals.raw += raw.length;
      totals.br += Math.min(br.length, raw.length);
      totals.gz += Math.min(gz.length, raw.length);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return totals;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const started = Date.now();
  const { files, raw, br, gz } = await precompressDir(dir);
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
  console.log(`precompressed ${files} files in ${path.relative(process.cwd(), dir) || '.'}: ${kb(raw)} → brotli ${kb(br)}, gzip ${kb(gz)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
