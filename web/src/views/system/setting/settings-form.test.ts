import { describe, expect, it } from 'vitest';
import { billCodePrefixes } from '@p8/contract/bills/code-prefixes';
import { systemSettingsSchema } from '@p8/contract/tenant-config';
import { changedSettings, settingsOfForm } from './settings-form.ts';

const stored = systemSettingsSchema.parse({ smsSignature: '演示制造', watermark: { enabled: true, content: 'custom', text: 'Internal' } });

describe('system settings form', () => {
  it('is unchanged when the form shows only part of a nested key (the custom text field is not mounted)', () => {
    const fresh = { ...stored, watermark: { enabled: true, content: 'custom' } };
    expect(changedSettings(stored, fresh)).toEqual({});
    expect(changedSettings(stored, {})).toEqual({});
    expect(changedSettings(stored, undefined)).toEqual({});
  });

  it('is unchanged when only surrounding spaces differ (a save trims them)', () => {
    expect(changedSettings(stored, { smsSignature: ' 演示制造 ', printTemplate: { header: '  ' } })).toEqual({});
  });

  it('names only the keys that changed, each whole as the server replaces it', () => {
    expect(changedSettings(stored, { ...stored, printTemplate: { ...stored.printTemplate, copies: 2 } })).toEqual({ printTemplate: { ...stored.printTemplate, copies: 2 } });
    expect(changedSettings(stored, { watermark: { enabled: false } })).toEqual({ watermark: { enabled: false, content: 'custom', text: 'Internal' } });
  });

  it('builds the whole settings a save sends, trimmed', () => {
    expect(settingsOfForm(stored, { smsSignature: ' 新签名 ', orderNotifyPhones: ['13800000011'] })).toEqual({ ...stored, smsSignature: '新签名', orderNotifyPhones: ['13800000011'] });
  });

  it("sends the bill-code prefixes whole and trimmed when one changed (the server shows every type's)", () => {
    const withPrefixes = { ...stored, billCodePrefixes: billCodePrefixes() };
    expect(changedSettings(withPrefixes, { billCodePrefixes: { PurchaseOrder: ' CGDD ' } })).toEqual({});
    expect(changedSettings(withPrefixes, { billCodePrefixes: { PurchaseOrder: ' PO ' } })).toEqual({ billCodePrefixes: { ...billCodePrefixes(), PurchaseOrder: 'PO' } });
  });
});
