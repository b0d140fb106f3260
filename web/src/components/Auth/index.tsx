import { useCallback, type ReactNode } from 'react';
import { useMenuStore } from '../../stores/menu.ts';
import { hasPermission, type PermissionCode as AuthCode } from '@p8/contract/permission';

export type { AuthCode };
export { hasPermission };

/**
 * Button permissions from the menu store's button codes.
 * `const can = useAuth(); can('system_role_add')`; array = all needed, `'a|b'` = any, plain = that code.
 */
export function useAuth(): (code: AuthCode) => boolean {
  const buttons = useMenuStore((s) => s.buttons);
  return useCallback((code: AuthCode) => hasPermission(buttons, code), [buttons]);
}

/** Renders its children only when the user holds `code`; otherwise `fallback` (default nothing). */
export function Auth({ code, children, fallback = null }: { code: AuthCode; children: ReactNode; fallback?: ReactNode }) {
  const can = useAuth();
  return <>{can(code) ? children : fallback}</>;
}

export default Auth;
