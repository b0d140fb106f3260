import path from 'node:path';

/**
 * The server package's folder. `npm start` runs the precompiled bundle `server/dist/main.mjs`, tests and
 * `npm run dev` run the sources in `server/src/`: both sit one level below it, so paths to files that are
 * not bundled (the migrations, the web build) are taken from here and work in either.
 */
export const SERVER_DIR = path.resolve(import.meta.dirname, '..');
