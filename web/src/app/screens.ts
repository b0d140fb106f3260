import type { ComponentType } from 'react';

/**
 * The product's screens: every view file's lazy import (with the chunks each one preloads, a table of
 * some 250 file names) and the bill registry. Loaded by app/dynamic-routes.ts with the user's routes, so
 * the sign-in page downloads none of it.
 */

// Screens only: parts under a `components/` folder are never a menu's component.
const views = import.meta.glob<{ default: ComponentType }>(['../views/**/*.tsx', '!../views/**/components/**', '!../views/error/**']);

/**
 * Every bill type's menu (`purchase/order/index`) opens the one bill screen kit, which reads the type
 * from the path. Which paths are bill screens is the contract's bill registry, which brings zod with it:
 * it is loaded with the user's routes or when the guard meets a path no file names — never on the
 * sign-in page.
 */
let billKit: typeof import('../views/bills/kit.ts') | undefined;
/** The same for the declared record kinds, whose menus open the one record screen (views/records). */
let recordKinds: typeof import('@p8/contract/records/catalogue') | undefined;
export async function loadDeclaredScreens() {
  [billKit, recordKinds] = await Promise.all([billKit ?? import('../views/bills/kit.ts'), recordKinds ?? import('@p8/contract/records/catalogue')]);
}

/** The view module of a menu `component` path, or undefined when no such file exists. */
export function viewLoaderFor(component: string) {
  const clean = component.trim().replace(/^\/+/, '').replace(/^views\//, '').replace(/\.tsx$/, '');
  const file = views[`../views/${clean}.tsx`] ?? views[`../views/${clean}/index.tsx`];
  if (file) return file;
  if (!billKit || !recordKinds) throw new Error('viewLoaderFor needs loadDeclaredScreens() first for a path that names no file');
  if (billKit.billTypeByScreen(clean)) return views['../views/bills/index.tsx'];
  return recordKinds.recordKindByScreen(clean) ? views['../views/records/index.tsx'] : undefined;
}

