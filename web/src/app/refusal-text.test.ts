import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorCatalogue } from '@p8/contract/errors';
import { useAuthStore } from '../stores/auth.ts';
import { useGlobalStore } from '../stores/global.ts';
import { feedback } from './feedback.ts';
import { http, isHttpError } from './http.ts';
import { provideRefusalDigits, refusalText } from './refusal-text.ts';

/** A refusal's values as the screens show them: named, figures rounded and grouped, in zh and en. */
const tenant = { numberRetainsSmallDigit: 2, amountRetainsSmallDigit: 2 };
const shortage = {
  line: 2,
  material: { code: 'M-001', name: '螺丝' },
  warehouse: '主仓',
  location: 'A-01',
  need: '1234.567000',
  have: '13.000000',
  measure: 'number' as const,
};

describe('refusal text', () => {
  it('names the line, material, warehouse and location and writes the figures like the lists, in zh', () => {
    expect(refusalText(errorCatalogue.InsufficientInventory.zh, shortage, 'zh', tenant)).toBe(
      '库存不足（第 2 行，物料 M-001 螺丝，仓库 主仓，库位 A-01，本次 1,234.57，可用 13.00）',
    );
  });

  it('does the same in en, with the tenant’s own decimal places', () => {
    expect(refusalText(errorCatalogue.InsufficientInventory.en, shortage, 'en', { numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2 })).toBe(
      'Insufficient inventory (line 2, material M-001 螺丝, warehouse 主仓, location A-01, asked 1,234.567, available 13.000)',
    );
  });

  it('writes amounts with the amount places, counts without places, and leaves a refusal without values alone', () => {
    const balance = { account: 'Cash', need: '10150.000000', have: '-1.5', measure: 'amount' as const };
    expect(refusalText('Insufficient account balance', balance, 'en', { numberRetainsSmallDigit: 4, amountRetainsSmallDigit: 2 })).toBe(
      'Insufficient account balance (account Cash, asked 10,150.00, available -1.50)',
    );
    expect(refusalText('商品库存不足', { product: 'T 恤 红 L', need: '12000', have: '3', measure: 'count' }, 'zh', tenant)).toBe('商品库存不足（商品 T 恤 红 L，本次 12,000，可用 3）');
    expect(refusalText('单据已全部结算', { bill: 'XSCK-001' }, 'zh', tenant)).toBe('单据已全部结算（单据 XSCK-001）');
    expect(refusalText('Operation failed', undefined, 'en', tenant)).toBe('Operation failed');
  });
});

describe('the HTTP client writes refusals with it', () => {
  const toasts: string[] = [];
  beforeEach(() => {
    toasts.length = 0;
    feedback.message = { error: (arg: { content: string }) => toasts.push(String(arg.content)) } as unknown as typeof feedback.message;
    useAuthStore.setState({ token: 'tok', userInfo: null });
    provideRefusalDigits({ numberRetainsSmallDigit: 1, amountRetainsSmallDigit: 2 });
  });
  afterEach(() => vi.unstubAllGlobals());

  for (const language of ['zh', 'en'] as const) {
    it(`toasts the named refusal with the tenant's places (${language})`, async () => {
      useGlobalStore.setState({ language });
      const body = { status: 40001, message: 'InsufficientInventory', details: shortage, data: null };
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } })));
      const caught = await http.post('/bills/x/audit', {}).catch((e: unknown) => e);
      expect(isHttpError(caught) && caught.details).toEqual(shortage);
      const expected = language === 'zh' ? '库存不足（第 2 行，物料 M-001 螺丝，仓库 主仓，库位 A-01，本次 1,234.6，可用 13.0）' : 'Insufficient inventory (line 2, material M-001 螺丝, warehouse 主仓, location A-01, asked 1,234.6, available 13.0)';
      expect(toasts).toEqual([expected]);
    });
  }
});
