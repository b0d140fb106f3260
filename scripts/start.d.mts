/** Types of what start.mjs exports, for the TypeScript that imports it (the E2E harness). */
export function newestMtime(target: string): number;
export function webBuildIsStale(root?: string): boolean;
