import { describe, expect, it } from 'vitest';
import { NOTICES, renderNotice, type NoticeKey } from './notices.ts';

describe('system notices', () => {
  it('write every notice out in both languages, every placeholder filled', () => {
    const params = { orderNo: 'FW1', serviceName: 'S', customerName: 'C', customerPhone: 'P', address: 'A', appointmentDate: '2026-12-01', slotTime: '09:00-10:00', typeZh: '补卡申请', typeEn: 'Replacement clock-in', billCode: 'BK1', sender: 'Li', reason: 'R' };
    for (const key of Object.keys(NOTICES) as NoticeKey[]) {
      for (const lang of ['zh', 'en'] as const) {
        const { title, content } = renderNotice({ key, params }, lang);
        expect(title).not.toMatch(/[{}]/);
        expect(content).not.toMatch(/[{}]/);
        // An order's notice names its appointment, a bill's its code, each in the reader's language.
        expect(content).toContain(key.startsWith('bill') ? 'BK1' : '2026-12-01');
        if (key.startsWith('bill')) expect(title).toContain(lang === 'zh' ? '补卡申请' : 'Replacement clock-in');
      }
    }
    expect(renderNotice({ key: 'serviceOrderNew', params: { ...params, appointmentDate: '' } }, 'en').content).toBe('C placed the service order “S”, address: A.');
  });
});
