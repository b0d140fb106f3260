#!/usr/bin/env node
/**
 * Compiles the server once into `server/dist/main.mjs` (esbuild: our TypeScript and the contract package
 * bundled, every npm dependency left to node_modules), so that `npm start` loads one precompiled file
 * instead of compiling ≈ 150 TypeScript files through tsx on every start. Tests and `npm run dev` keep
 * running the sources. Part of `npm run build`; `npm start` rebuilds it when a source is newer.
 *
 *   node scripts/build-server.mjs
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { newestMtime } from './start.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(ROOT, 'server/dist/main.mjs');
/** The inputs of the bundle: the server's sources and the contract package it compiles in. */
const SERVER_INPUTS = ['server/src', 'server/package.json', 'packages/contract/src', 'scripts/build-server.mjs'];

export function serverBuildIsStale(root = ROOT) {
  const bundle = path.join(root, 'server/dist/main.mjs');
  if (!existsSync(bundle)) return true;
  const sources = Math.max(...SERVER_INPUTS.map((input) => newestMtime(path.join(root, input))));
  return sources > statSync(bundle).mtimeMs;
}

export async function buildServer(root = ROOT) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'server/package.json'), 'utf8'));
  // Dependencies stay imports: native addons, wasm and their own files resolve beside them as usual.
  const external = Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]);
  await build({
    entryPoints: [path.join(root, 'server/src/main.ts')],
    outfile: path.join(root, 'server/dist/main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  await buildServer();
  console.log(`server/dist/main.mjs built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
