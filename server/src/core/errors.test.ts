import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { loggableError } from './errors.ts';

describe('what the log keeps of a failed query', () => {
  it('keeps the statement, the database error and the stack, never the parameters', () => {
    const cause = Object.assign(new Error('value too long for type character varying(50)'), { code: '22001', detail: 'Key (phone)=(13912345678) is secret', table: 'admin' });
    const error = new DrizzleQueryError('update "admin" set "password_hash" = $1, "phone" = $2 where "id" = $3', ['$argon2id$secret-hash', '13912345678', 7], cause);
    const logged = JSON.stringify(loggableError(error));
    expect(logged).toContain('update \\"admin\\" set \\"password_hash\\" = $1');
    expect(logged).toContain('value too long');
    expect(logged).toContain('22001');
    expect(logged).toContain('errors.test.ts');
    expect(logged).not.toContain('secret-hash');
    expect(logged).not.toContain('13912345678');
  });

  it('passes other errors through unchanged', () => {
    const error = new Error('boom');
    expect(loggableError(error)).toBe(error);
  });
});
