import { describe, it, expect } from 'vitest';
import { errorCatalogue, isErrorKey, type CatalogueText } from './errors.ts';

const entries = Object.entries(errorCatalogue) as [string, CatalogueText][];

// CJK ideographs, CJK symbols and punctuation, and full-width forms.
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;
const CJK_IDEOGRAPH = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/** Keys that deliberately share an English text with another key (none at present). */
const SHARED_ENGLISH_ALLOWED: ReadonlySet<string> = new Set<string>([]);

/** Keys the product's specification names literally: other systems and the bill engine rely on them. */
const LITERAL_KEYS = [
  'PhoneFormatError',
  'PasswordFormatError',
  'ImgCaptchaError',
  'PhoneCaptchaError',
  'PasswordError',
  'SendPhoneCaptchaError',
  'PhoneIsRegistered',
  'AdminNotExist',
  'AdminIsLock',
  'TenantIsDisabled',
  'AdminExist',
  'NameRepeat',
  'CodeRepeat',
  'RoleKeyRepeat',
  'SpecRepeat',
  'SerialNumberRepeat',
  'BatchNumberNumberRepeat',
  'BillCodeRepeat',
  'BillVerifyRuleRepeat',
  'MaterialBomVersionRepeat',
  'InsufficientInventory',
  'BatchNumberInsufficientInventory',
  'ExistNegativeInventoryProhibitClose',
  'LocationExistInventoryProhibitClose',
  'ExistMaterialIsInventorying',
  'BillNotAudit',
  'SourceBillNotAudit',
  'ItemIsPushedBillProhibitConversion',
];

/** Keys the foundation relies on. */
const FOUNDATION_KEYS = [
  'Success',
  'Error',
  'NetworkError',
  'TimeOut',
  'ServerError',
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'DataNotExist',
  'ImgCaptchaRequired',
  'ImgCaptchaExpired',
  'PhoneCaptchaExpired',
  'PasswordInconsistent',
  'OldPasswordError',
  'RegisterClosed',
  'OnlyInitialAdminCanOperate',
  'OnlyCreatorCanOperate',
  'SessionExpired',
  'SessionRevoked',
  'ModuleExpired',
  'DefaultRoleProhibitDelete',
  'DefaultDeptProhibitDelete',
  'DefaultAdminProhibitDelete',
  'DefaultDataProhibitDelete',
  'DefaultMenuProhibitDelete',
  'MenuHasChildrenProhibitDelete',
  'DeptHasChildrenProhibitDelete',
  'RoleInUseProhibitDelete',
  'MainUnitProhibitDelete',
  'MainUnitProhibitDisable',
  'ParentCannotBeSelf',
  'CategoryMaxThreeLevels',
  'DistrictMaxFourLevels',
  'SuperRoleProhibitSetPermission',
  'CannotDeleteSelf',
  'MessageSenderReceiverSame',
  'OnlyMessageSenderCanDelete',
  'DecimalPlacesOnlyIncrease',
  'DecimalPlacesMaxSix',
  'CommonMenuMaxThirty',
  'UploadTypeNotAllowed',
  'UploadSizeExceeded',
  'UploadCountExceeded',
  'ImportFailed',
  'ImportFileTypeError',
  'WrongHexValue',
  'TransferWarehouseSame',
  'ShiftTimeOverlap',
  'ShiftTimeOrder',
  'CurrentStatusBillProhibitSave',
  'CurrentStatusBillProhibitAudit',
  'CurrentStatusBillProhibitAbandonAudit',
  'CurrentStatusBillProhibitDelete',
  'CurrentStatusBillProhibitPushDown',
  'CurrentStatusBillProhibitMerge',
  'CurrentStatusBillProhibitManualCompletion',
  'ExistChildrenBillProhibitAbandonAudit',
  'BillIsMrpOperationProhibitAbandonAudit',
];

describe('errorCatalogue', () => {
  it('is a sizeable catalogue', () => {
    expect(entries.length).toBeGreaterThanOrEqual(200);
  });

  it('uses PascalCase keys', () => {
    for (const [key] of entries) {
      expect(key, key).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    }
  });

  it('has non-empty zh and en texts for every key', () => {
    for (const [key, text] of entries) {
      expect(Object.keys(text).sort(), key).toEqual(['en', 'zh']);
      expect(typeof text.zh, key).toBe('string');
      expect(typeof text.en, key).toBe('string');
      expect(text.zh.trim().length, `${key}.zh`).toBeGreaterThan(0);
      expect(text.en.trim().length, `${key}.en`).toBeGreaterThan(0);
      expect(text.zh, `${key}.zh`).toBe(text.zh.trim());
      expect(text.en, `${key}.en`).toBe(text.en.trim());
    }
  });

  it('has at least one CJK character in every zh text', () => {
    for (const [key, text] of entries) {
      expect(CJK_IDEOGRAPH.test(text.zh), `${key}.zh: ${text.zh}`).toBe(true);
    }
  });

  it('has no CJK characters or full-width punctuation in any en text', () => {
    for (const [key, text] of entries) {
      expect(CJK.test(text.en), `${key}.en: ${text.en}`).toBe(false);
    }
  });

  it('has no two keys with the same English text unless allowed', () => {
    const byText = new Map<string, string[]>();
    for (const [key, text] of entries) {
      const norm = text.en.toLowerCase();
      byText.set(norm, [...(byText.get(norm) ?? []), key]);
    }
    const clashes = [...byText.values()]
      .filter((keys) => keys.length > 1)
      .filter((keys) => !keys.every((k) => SHARED_ENGLISH_ALLOWED.has(k)));
    expect(clashes).toEqual([]);
  });

  it('has no two keys with the same Chinese text', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const [key, text] of entries) {
      const other = seen.get(text.zh);
      if (other) clashes.push(`${other} / ${key}: ${text.zh}`);
      else seen.set(text.zh, key);
    }
    expect(clashes).toEqual([]);
  });

  it('contains every key the specification names literally', () => {
    for (const key of LITERAL_KEYS) {
      expect(isErrorKey(key), key).toBe(true);
    }
  });

  it('contains the keys the foundation needs', () => {
    for (const key of FOUNDATION_KEYS) {
      expect(isErrorKey(key), key).toBe(true);
    }
  });

  it('keeps the literal texts the specification prescribes', () => {
    expect(errorCatalogue.PasswordInconsistent).toEqual({
      zh: '两次密码不一致',
      en: 'The two passwords are inconsistent',
    });
    expect(errorCatalogue.ImportFailed.zh).toBe('批量添加失败，请重新上传');
    expect(errorCatalogue.OnlyCreatorCanOperate.en).toBe('Only the creator can operate');
  });

  it('provides concrete PleaseSelect and PleaseInput messages', () => {
    const keys = entries.map(([key]) => key);
    expect(keys.filter((k) => k.startsWith('PleaseSelect')).length).toBeGreaterThanOrEqual(20);
    expect(keys.filter((k) => k.startsWith('PleaseInput')).length).toBeGreaterThanOrEqual(20);
  });

  it('rejects keys that are not in the catalogue', () => {
    expect(isErrorKey('NoSuchKey')).toBe(false);
    expect(isErrorKey('toString')).toBe(false);
    expect(isErrorKey('constructor')).toBe(false);
  });
});
