import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tenantConfigSchema } from '@p8/contract/tenant-config';
import { CONFIG_READERS } from '@p8/contract/tenant-config-readers';

/**
 * Walks every key of the tenant config schema: each is read by a declared rule (CONFIG_READERS names it and
 * the files where the rule is written, the first naming the key), or belongs to an area not built yet — and
 * then nothing reads it. A key added to the schema without an entry fails here (and in the types).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const names = (text: string, key: string) => new RegExp(`\\b${key}\\b`).test(text);

/** The code that could read a key: server and web sources, not the tenant screen and texts that only show it. */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir))) {
    const path = join(dir, entry);
    if (statSync(join(ROOT, path)).isDirectory()) found.push(...sources(path));
    else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) found.push(path);
  }
  return found;
}
const SHOWS_ONLY = [/^web\/src\/locales\//, /^web\/src\/views\/system\/tenant\//, /^web\/src\/views\/system\/audit\//];
const CODE = [...sources('server/src'), ...sources('web/src')].filter((p) => !SHOWS_ONLY.some((re) => re.test(relative('', p))));

const KEYS = Object.keys(tenantConfigSchema.shape);

describe('every tenant config key has a reader', () => {
  it('the registry holds exactly the schema keys', () => {
    expect(Object.keys(CONFIG_READERS).sort()).toEqual([...KEYS].sort());
  });

  it.each(KEYS)('%s', (key) => {
    const entry = CONFIG_READERS[key as keyof typeof CONFIG_READERS];
    expect(entry, `${key} has no entry in CONFIG_READERS`).toBeDefined();
    if ('read' in entry) {
      expect(entry.read.trim().length).toBeGreaterThan(0);
      expect(entry.in.length).toBeGreaterThan(0);
      for (const path of entry.in) expect(existsSync(join(ROOT, path)), path).toBe(true);
      expect(names(read(entry.in[0]), key), `${entry.in[0]} names ${key}`).toBe(true);
    } else {
      // Nothing reads a key of an area not built: once something does, its entry says what.
      const readers = CODE.filter((path) => names(read(path), key));
      expect(readers, `${key} is read: move it to "read"`).toEqual([]);
    }
  });
});
