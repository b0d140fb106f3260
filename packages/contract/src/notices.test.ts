import { describe, expect, it } from 'vitest';
import { NOTICES, renderNotice, type NoticeKey } from './notices.ts';

describe('system notices', () => {
  it('write every notice out in both languages, every placeholder filled', () => {
    const params = { orderNo: 'FW1', serviceName: 'S', customerName: 'C', customerPhone: 'P', address: 'A', appointmentDate: '2026-12-01', slotTime: '09:00-10:00', typeZh: '补卡申请', typeEn: 'Replacement clock-in', billCode: 'BK1', sender: 'Li', reason: 'R',
      itemCount: '3', firstItemName: 'T-shirt', payAmount: '99.00', consignee: 'Z', date: '2026-11-28', person: 'Wang', anomaliesZh: '迟到', anomaliesEn: 'late', title: 'T1', dueDate: '2026-12-01' };
    // What each notice must show of its values, in both languages.
    const shows: Record<NoticeKey, string[]> = {
      mallOrderNew: ['3', 'T-shirt', '99.00', 'Z'],
      serviceOrderNew: ['2026-12-01'],
      serviceOrderDispatched: ['2026-12-01', 'P'],
      billReview: ['BK1'],
      billApproved: ['BK1'],
      billRefused: ['BK1', 'R'],
      attendanceAnomaly: ['2026-11-28', 'Wang'],
      taskAssigned: ['BK1', 'T1', '2026-12-01', 'Li'],
      taskDueSoon: ['BK1', 'T1', '2026-12-01'],
      taskOverdue: ['BK1', 'T1', '2026-12-01'],
      taskCompleted: ['BK1', 'T1', 'Li'],
      taskTerminated: ['BK1', 'T1', 'R'],
    };
    for (const key of Object.keys(NOTICES) as NoticeKey[]) {
      for (const lang of ['zh', 'en'] as const) {
        const { title, content } = renderNotice({ key, params }, lang);
        expect(title).not.toMatch(/[{}]/);
        expect(content).not.toMatch(/[{}]/);
        // An order's notice names its appointment, a bill's its code, each in the reader's language.
        for (const value of shows[key]) expect(content).toContain(value);
        if (key.startsWith('bill')) expect(title).toContain(lang === 'zh' ? '补卡申请' : 'Replacement clock-in');
      }
    }
    expect(renderNotice({ key: 'serviceOrderNew', params: { ...params, appointmentDate: '' } }, 'en').content).toBe('C placed the service order “S”, address: A.');
    expect(renderNotice({ key: 'attendanceAnomaly', params }, 'zh').content).toContain('迟到');
    expect(renderNotice({ key: 'attendanceAnomaly', params }, 'en').content).toContain('late');
  });
});
