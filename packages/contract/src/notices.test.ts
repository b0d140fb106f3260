import { describe, expect, it } from 'vitest';
import { NOTICES, renderNotice, type NoticeKey } from './notices.ts';

describe('system notices', () => {
  it('write every notice out in both languages, every placeholder filled', () => {
    const params = { orderNo: 'FW1', serviceName: 'S', customerName: 'C', customerPhone: 'P', address: 'A', appointmentDate: '2026-12-01', slotTime: '09:00-10:00' };
    for (const key of Object.keys(NOTICES) as NoticeKey[]) {
      for (const lang of ['zh', 'en'] as const) {
        const { title, content } = renderNotice({ key, params }, lang);
        expect(title).not.toMatch(/[{}]/);
        expect(content).not.toMatch(/[{}]/);
        expect(content).toContain('2026-12-01');
      }
    }
    expect(renderNotice({ key: 'serviceOrderNew', params: { ...params, appointmentDate: '' } }, 'en').content).toBe('C placed the service order “S”, address: A.');
  });
});
