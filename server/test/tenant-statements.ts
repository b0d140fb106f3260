/**
 * Whether a statement names its tenant on every tenant table it touches — what a database distributed by
 * tenant_id needs to send it to the one node holding that tenant (docs/operations.md, "Distributing by
 * tenant"). A reading of the SQL text, not a parser: every table after FROM, JOIN, UPDATE or DELETE FROM that
 * is a tenant table must have a `tenant_id` condition by its alias (`b.tenant_id = $1`, `l.tenant_id =
 * b.tenant_id`, drizzle's `"bill"."tenant_id" = $1`), or, for a table named without an alias, a bare
 * `tenant_id =` in its own (sub)query; an INSERT must list tenant_id among its columns; and the statement as a whole must compare
 * tenant_id with a value somewhere (joins alone only carry a tenant the statement has named).
 */
const NOT_ALIASES = new Set([
  'where', 'on', 'set', 'inner', 'left', 'right', 'full', 'cross', 'join', 'using', 'group', 'order', 'limit', 'offset',
  'values', 'select', 'natural', 'lateral', 'for', 'returning', 'union', 'except', 'intersect', 'having', 'window', 'and',
  'or', 'not', 'with', 'into', 'from', 'when', 'then', 'else', 'end', 'fetch', 'do', 'as',
]);

export function tenantProblems(text: string, tenantTables: ReadonlySet<string>): string[] {
  const s = text.toLowerCase().replace(/"/g, '').replace(/\s+/g, ' ');
  const problems: string[] = [];
  const refs: Array<{ table: string; alias: string; at: number }> = [];
  for (const m of s.matchAll(/\b(from|join|update|into)\s+(?:only\s+)?(?:public\.)?([a-z_][a-z0-9_]*)(\s*\()?(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/g)) {
    const [, verb, table, paren, alias] = m;
    if (!tenantTables.has(table)) continue;
    if (verb === 'into') {
      const columns = paren ? s.slice(m.index! + m[0].length, s.indexOf(')', m.index! + m[0].length)) : '';
      if (!/\btenant_id\b/.test(columns)) problems.push(`insert into ${table} without tenant_id`);
      continue;
    }
    if (paren) continue; // a function of that name, not the table
    refs.push({ table, alias: alias && !NOT_ALIASES.has(alias) ? alias : table, at: m.index! });
  }
  if (!refs.length) return problems;
  const condition = (ref: string) => new RegExp(`(\\b${ref}\\.tenant_id\\s*(=|in\\b|is not distinct from))|(=\\s*${ref}\\.tenant_id\\b)`);
  const bare = /(^|[^.\w])tenant_id\s*(=|in\b)|=\s*tenant_id\b/;
  for (const { table, alias, at } of refs) {
    // A table named without an alias may be filtered by a bare `tenant_id` in its own (sub)query: from where
    // it is named to the parenthesis that closes that query.
    const named = condition(alias).test(s) || (alias !== table && condition(table).test(s)) || (alias === table && bare.test(ownQuery(s, at)));
    if (!named) problems.push(`${table}${alias !== table ? ` ${alias}` : ''} without a tenant_id condition`);
  }
  // Some tenant_id compared with a value: a parameter, a number, a list, the transaction's setting.
  if (!/tenant_id\s*(=|in)\s*(any\s*\(\s*)?\(?\s*(\$\d|\d|nullif|current_setting|coalesce|\(select)/.test(s)) problems.push('no tenant_id compared with a value');
  return problems;
}

/** The text from `at` to the end of the (sub)query it is in: up to the first parenthesis that closes more than it opened. */
function ownQuery(s: string, at: number): string {
  let depth = 0;
  for (let i = at; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth < 0) return s.slice(at, i);
  }
  return s.slice(at);
}
