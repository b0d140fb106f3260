import { eq } from 'drizzle-orm';
import { SYSTEM_SETTING_KEYS, systemSettingsSchema, type SystemSettings } from '@p8/contract/tenant-config';
import { billCodePrefixes } from '@p8/contract/bills/code-prefixes';
import type { Tx } from '../db/connection.ts';
import { systemSetting } from '../db/schema/index.ts';

/** A tenant's system settings (one stored row per key), each key defaulted. */
export async function readSystemSettings(tx: Tx, tenantId: number): Promise<SystemSettings> {
  const rows = await tx.select({ key: systemSetting.key, value: systemSetting.value }).from(systemSetting).where(eq(systemSetting.tenantId, tenantId));
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const defaults = systemSettingsSchema.parse({});
  // A stored value an older release wrote in another shape falls back to its default instead of failing the screen.
  const entries = SYSTEM_SETTING_KEYS.map((key) => {
    const parsed = systemSettingsSchema.shape[key].safeParse(stored[key]);
    return [key, parsed.success ? parsed.data : defaults[key]];
  });
  const settings = Object.fromEntries(entries) as SystemSettings;
  // Stored: the prefixes the tenant changed; shown: every declared bill type's.
  return { ...settings, billCodePrefixes: billCodePrefixes(settings.billCodePrefixes) };
}

/**
 * The extensions a tenant added to the generic file and attachment uploads. A stored list holding a denied
 * one fails the schema and falls back to none; the upload check refuses denied extensions anyway.
 */
export async function readUploadExtensions(tx: Tx, tenantId: number): Promise<string[]> {
  return (await readSystemSettings(tx, tenantId)).uploadExtensions;
}
