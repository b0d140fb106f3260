/** Types of what build-server.mjs exports, for the TypeScript that imports it (the E2E harness). */
export const SERVER_BUNDLE: string;
export function serverBuildIsStale(root?: string): boolean;
export function buildServer(root?: string): Promise<void>;
