import type { SystemConfig } from '@p8/contract/tenant-config';
import { useSystemConfigStore } from '../app/system-config.ts';

/** Public system config (title, logo, icp, password regex…), loaded at start-up by the app. */
export function useSystemConfig(): SystemConfig | undefined {
  return useSystemConfigStore((s) => s.config) ?? undefined;
}
