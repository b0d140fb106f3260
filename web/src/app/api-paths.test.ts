import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { API_BASE } from './http.ts';

/**
 * The HTTP client (`http.*`) and the upload client (`xhrUpload`) put `/api` in front of the path they are
 * given, and so do the shared components that hand a path to them (the list kit's `path`, the export
 * button's, the import dialog's). A path written with `/api` already goes to `/api/api/…`, which the
 * server answers "resource does not exist" — the batch suggestion button of the bill form did. This walks
 * every source file of the web app and reads the path each such call or prop is given (a literal, a
 * template's leading text, a constant of the same file, the left side of a `+`), so the mistake cannot
 * come back in a new screen.
 */
const SRC = path.resolve(import.meta.dirname, '..');
const CLIENT_METHODS = new Set(['get', 'post', 'put', 'delete', 'list', 'download', 'exportFile']);
/** Props of the shared components that pass their value to the HTTP or upload client. */
const PATH_PROPS = new Set(['path', 'exportPath', 'importPath']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The text a path expression starts with, as far as the file itself says; undefined when it cannot tell. */
function leadingText(node: ts.Expression, constants: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (depth > 5) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return leadingText(node.expression, constants, depth + 1);
  if (ts.isTemplateExpression(node)) {
    if (node.head.text) return node.head.text;
    const inner = leadingText(node.templateSpans[0].expression, constants, depth + 1);
    return inner === undefined ? undefined : inner + node.templateSpans[0].literal.text;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) return leadingText(node.left, constants, depth + 1);
  if (ts.isIdentifier(node)) {
    const value = constants.get(node.text);
    return value ? leadingText(value, constants, depth + 1) : undefined;
  }
  if (ts.isConditionalExpression(node)) return leadingText(node.whenTrue, constants, depth + 1) ?? leadingText(node.whenFalse, constants, depth + 1);
  // `.replace(/^\/api/, '')` takes the prefix off a path the contract gives with it.
  return undefined;
}

interface Found {
  file: string;
  line: number;
  what: string;
  path: string;
}

/** Every path handed to a client that prefixes `/api`, with where it is. */
function prefixedPaths(file: string): Found[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const constants = new Map<string, ts.Expression>();
  const found: Found[] = [];
  const record = (node: ts.Node, what: string, expression: ts.Expression) => {
    const lead = leadingText(expression, constants);
    if (lead !== undefined) found.push({ file: path.relative(SRC, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, what, path: lead });
  };
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    ts.forEachChild(node, collect);
  };
  collect(source);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.arguments.length) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'http' && CLIENT_METHODS.has(callee.name.text)) {
        record(node, `http.${callee.name.text}`, node.arguments[0]);
      }
      if (ts.isIdentifier(callee) && callee.text === 'xhrUpload' && ts.isObjectLiteralExpression(node.arguments[0])) {
        for (const property of node.arguments[0].properties) {
          if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === 'url') record(node, 'xhrUpload', property.initializer);
        }
      }
    }
    if (ts.isJsxAttribute(node) && ts.isIdentifier(node.name) && PATH_PROPS.has(node.name.text) && node.initializer) {
      const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (value) record(node, `${node.name.text}=`, value as ts.Expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('paths given to the HTTP client', () => {
  const all = sources(SRC).flatMap(prefixedPaths);

  it('are found (the walker reads the calls of the api files)', () => {
    // A walker that finds nothing proves nothing: the screens make hundreds of such calls.
    expect(all.length).toBeGreaterThan(200);
  });

  it(`never start with ${API_BASE}/, which the client puts in front itself`, () => {
    const doubled = all.filter((f) => f.path === API_BASE || f.path.startsWith(`${API_BASE}/`)).map((f) => `${f.file}:${f.line} ${f.what} '${f.path}'`);
    expect(doubled).toEqual([]);
  });
});
