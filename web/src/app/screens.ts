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
export async function loadBillKit() {
  billKit ??= await import('../views/bills/kit.ts');
}

/** The view module of a menu `component` path, or undefined when no such file exists. */
export function viewLoaderFor(component: string) {
  const clean = component.trim().replace(/^\/+/, '').replace(/^views\//, '').replace(/\.tsx$/, '');
  const file = views[`../views/${clean}.tsx`] ?? views[`../views/${clean}/index.tsx`];
  if (file) return file;
  if (!billKit) throw new Error('viewLoaderFor needs loadBillKit() first for a path that names no file');
  return billKit.billTypeByScreen(clean) ? views['../views/bills/index.tsx'] : undefined;
}

