import type { FormInstance } from 'antd';
import type { Rule, RuleObject } from 'antd/es/form';

/**
 * A cell's form rules checked without its Form.Item. A long grid draws only the rows in view, and the
 * form validates only the fields that are drawn; the rows out of view are checked here, by the same rules
 * (required, whitespace, min / max / len on text, pattern, validator functions, rules made from the form),
 * so that saving refuses a bad line wherever it is. Resolves the first refusal's message, or undefined.
 */
export async function firstRefusal(rules: readonly Rule[], value: unknown, form: FormInstance, field: string, fallback: string): Promise<string | undefined> {
  for (const entry of rules) {
    const rule: RuleObject = typeof entry === 'function' ? entry(form) : entry;
    const message = typeof rule.message === 'string' ? rule.message : fallback;
    const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (rule.required && (empty || (rule.whitespace && typeof value === 'string' && !value.trim()))) return message;
    if (empty) continue;
    if (typeof value === 'string') {
      if (rule.whitespace && !value.trim()) return message;
      if (rule.len !== undefined && value.length !== rule.len) return message;
      if (rule.max !== undefined && value.length > rule.max) return message;
      if (rule.min !== undefined && value.length < rule.min) return message;
      if (rule.pattern && !new RegExp(rule.pattern.source, rule.pattern.flags.replace('g', '')).test(value)) return message;
    }
    if (rule.validator) {
      try {
        await new Promise<void>((resolve, reject) => {
          const answer = rule.validator!({ ...rule, field, fullField: field } as never, value, (error?: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()));
          // A validator answers with a promise, or through the callback (called by now, or later).
          if (answer && typeof (answer as Promise<void>).then === 'function') (answer as Promise<void>).then(resolve, reject);
          else if (rule.validator!.length < 3) resolve();
        });
      } catch (error) {
        const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
        return text || message;
      }
    }
  }
  return undefined;
}
