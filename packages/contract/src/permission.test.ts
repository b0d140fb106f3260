import { describe, expect, it } from 'vitest';
import { hasPermission } from './permission.ts';

const buttons = ['system_role_add', 'system_role_update', 'system_staff_add'];

describe('hasPermission (the button-permission rule)', () => {
  it('a plain string needs that code', () => {
    expect(hasPermission(buttons, 'system_role_add')).toBe(true);
    expect(hasPermission(buttons, 'system_role_delete')).toBe(false);
  });

  it('an array needs every code', () => {
    expect(hasPermission(buttons, ['system_role_add', 'system_role_update'])).toBe(true);
    expect(hasPermission(buttons, ['system_role_add', 'system_role_delete'])).toBe(false);
  });

  it("a string with '|' needs any one of its codes", () => {
    expect(hasPermission(buttons, 'system_role_delete|system_staff_add')).toBe(true);
    expect(hasPermission(buttons, 'system_role_delete|system_staff_delete')).toBe(false);
  });

  it('holds nothing without buttons', () => {
    expect(hasPermission([], 'system_role_add')).toBe(false);
    expect(hasPermission([], 'a|b')).toBe(false);
  });

  it('does not match a code by prefix or substring', () => {
    expect(hasPermission(buttons, 'system_role')).toBe(false);
    expect(hasPermission(['system_role_add_batch'], 'system_role_add')).toBe(false);
  });

  it('ignores empty parts and spaces around codes', () => {
    expect(hasPermission(buttons, ' system_role_delete | system_role_add |')).toBe(true);
    expect(hasPermission(buttons, '|')).toBe(false);
  });
});
