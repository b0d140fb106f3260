import path from 'node:path';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * Business areas may not reach into each other (STYLE.md "Find a feature by its business name"):
 * what two areas share moves down a layer. Each entry: files under `from` may not import files under
 * any folder of `areas` other than their own; files under a `shared` folder may not import any area.
 */
const BOUNDARIES = [
  { areas: 'server/src/modules', shared: ['server/src/core'], lower: 'core/' },
  // A web "area" is one screen: `views/<area>/<screen>/` (`views/basic/unit`), or `views/<screen>/` for
  // the screens that stand alone (`views/login`). Screens of one menu group share nothing directly either.
  { areas: 'web/src/views', shared: ['web/src/components'], lower: 'components/', screens: true },
];

/** The folders a screen keeps its own pieces in: `views/login/api/` belongs to the screen `login`. */
const SCREEN_PARTS = new Set(['api', 'components', 'hooks']);

const ROOT = import.meta.dirname;
const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * `<areas>/<area>/...` → area name, else undefined. With `screens`, the area is the screen:
 * `<areas>/<group>/<screen>/...` → `group/screen`, unless the second folder is one of the screen's own
 * parts (`views/login/api/x.ts` → `login`).
 */
function areaOf(relPath, { areas, screens }) {
  if (!relPath.startsWith(`${areas}/`)) return undefined;
  const parts = relPath.slice(areas.length + 1).split('/');
  if (parts.length < 2) return undefined;
  if (screens && parts.length >= 3 && !SCREEN_PARTS.has(parts[1])) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A business area (server module, web screen) never imports another area; shared layers import no area.' },
    schema: [],
    messages: {
      crossArea: "'{{from}}' may not import from area '{{to}}' ({{areas}}/{{to}}): move what both need to {{lower}}",
      sharedToArea: "'{{from}}' is shared code and may not import the business area '{{to}}' ({{areas}}/{{to}})",
    },
  },
  create(context) {
    const file = rel(context.filename);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = rel(path.resolve(path.dirname(context.filename), source));
      for (const boundary of BOUNDARIES) {
        const { areas, shared, lower } = boundary;
        const to = areaOf(target, boundary);
        if (!to) continue;
        const from = areaOf(file, boundary);
        if (from && from !== to) context.report({ node, messageId: 'crossArea', data: { from: file, to, areas, lower } });
        if (shared.some((dir) => file.startsWith(`${dir}/`))) context.report({ node, messageId: 'sharedToArea', data: { from: file, to, areas } });
      }
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'server/src/db/migrations/**',
      'data/**',
      '**/data/**',
      'e2e/artifacts/**',
      'bench/results/**',
      '**/*.tsbuildinfo',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: config.files ?? ['**/*.{ts,tsx,mts}'] })),
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    plugins: { local: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      'local/module-boundaries': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      // `_`-prefixed names are deliberately unused (callback positions, destructured-away fields).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Declaration merging (`interface X extends Y {}`) is how Fastify and the contract extend types.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Playwright callbacks (`page.evaluate`) run in the browser.
    files: ['e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
