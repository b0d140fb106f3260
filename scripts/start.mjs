#!/usr/bin/env node
/**
 * `npm start`: builds the web app and the precompiled server (scripts/build-server.mjs) when a build is
 * missing or older than its sources, then runs the server bundle (which serves the web build at `/`). SIGINT/SIGTERM are passed to the server so that it finishes
 * in-flight requests and closes the database before exiting.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverBuildIsStale, SERVER_BUNDLE } from './build-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Newest modification time (ms) of the files under `target`; 0 when it does not exist. */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** The inputs of the web build: its sources, config and the contract package it compiles in. */
const WEB_INPUTS = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'packages/contract/src'];

export function webBuildIsStale(root = ROOT) {
  const built = path.join(root, 'web/dist/index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(...WEB_INPUTS.map((input) => newestMtime(path.join(root, input))));
  return sources > statSync(built).mtimeMs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (webBuildIsStale()) {
    console.log('web/dist is missing or older than the web sources: building the web app…');
    // A production build whatever NODE_ENV the shell has (Vite would build React's development code otherwise).
    const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (build.status !== 0) {
      console.error('npm start: the web build failed');
      process.exit(build.status ?? 1);
    }
  }

  if (serverBuildIsStale()) {
    console.log('server/dist is missing or older than the server sources: building the server…');
    await buildServer();
  }

  const env = { ...process.env, PORT: process.env.PORT || '8080' };
  // --enable-source-maps: stack traces in the logs name the TypeScript sources. SERVER_NODE_FLAGS: V8 flags
  // of the server process (docs/operations.md); by default --optimize-for-size, which keeps V8 from letting
  // the heap grow to several times what is live while a big import makes garbage (docs/decisions.md).
  const nodeFlags = (process.env.SERVER_NODE_FLAGS ?? '--optimize-for-size').split(/\s+/).filter(Boolean);
  const server = spawn(process.execPath, ['--enable-source-maps', ...nodeFlags, SERVER_BUNDLE], { cwd: ROOT, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (server.exitCode === null) server.kill(signal);
    });
  }
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 0)));
}
