import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_STAGE_LABELS } from '@p8/contract/tasks';
import { api, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, submitAuditAndClose, type Lang } from '../bill-steps.ts';

/**
 * Tasks (docs/office.md) as the demo administrator: a task written on the task list (title, rich-text content,
 * an assignee, a due date), saved, submitted and audited; on the board it is "not started", started, given a
 * progress note with a percentage and completed. Not started, its form offers withdrawing the audit; started, it
 * does not, and the server refuses the withdrawal with the catalogued key. In Chinese and English.
 */

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('tasks');
});
afterAll(() => suite?.close());

const inDays = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('tasks (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('a task from creation through audit, start and a progress note to completion; a refused withdrawal (%s)', async (lang, locale) => {
    const page = await demoPage(suite, lang, locale);
    const call = await pageCaller(suite, page);
    const title = lang === 'zh' ? `冲压机月度点检 ${Date.now()}` : `Monthly press check ${Date.now()}`;

    await page.goto('/office/task');
    await page.getByTestId('bill-status-tabs').waitFor();
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    await form.getByTestId('bill-field-title').fill(title);
    const due = form.getByTestId('bill-field-dueDate');
    await due.click();
    await due.fill(inDays(3));
    await due.press('Enter');
    // The assignee: the first staff member the select lists.
    await form.getByTestId('bill-field-assigneeIds').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ visible: true }).first().click();
    await page.keyboard.press('Escape');
    await form.locator('[data-testid="bill-field-content"] .ProseMirror').click();
    await page.keyboard.type(lang === 'zh' ? '检查润滑、气压和安全光栅。' : 'Check lubrication, air pressure and the light curtain.');
    await screenshot(page, `tasks-form-${lang}`);
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/office/task')), form.getByTestId('bill-save').click()]);
    await submitAuditAndClose(form);
    await screenshot(page, `tasks-list-${lang}`);
    const [saved] = await call<Array<{ id: number; billCode: string }>>('GET', `/admin/office/task?title=${encodeURIComponent(title)}&current=1&pageSize=10`);
    expect(saved, 'the task in the list').toBeTruthy();

    // Audited and not started yet, the task's form offers withdrawing the audit.
    await page.getByTestId(`bill-open-${saved.id}`).click();
    await page.getByTestId('bill-form').getByTestId('bill-op-abandonAudit').waitFor();
    await page.getByTestId('bill-form').getByTestId('bill-close').click();

    await page.goto('/office/taskBoard');
    const card = page.getByTestId('task-column-NotStarted').getByTestId(`task-card-${saved.billCode}`);
    await card.click();
    const drawer = page.getByTestId('task-drawer');
    await expect.poll(() => drawer.getByTestId('task-stage').textContent()).toBe(TASK_STAGE_LABELS.NotStarted[lang]);
    await drawer.getByTestId('task-start').click();
    await waitUntil(() => drawer.getByTestId('task-stage').textContent(), (text) => text === TASK_STAGE_LABELS.InProgress[lang], 'the task in progress');
    await drawer.getByTestId('task-progress').click();
    await page.getByTestId('task-note-text').fill(lang === 'zh' ? '润滑和气压正常，光栅待校准。' : 'Lubrication and air fine; the light curtain needs calibrating.');
    await page.locator('input[data-testid="task-note-percent"], [data-testid="task-note-percent"] input').first().fill('60');
    await page.locator('.ant-modal-footer .ant-btn-primary').filter({ visible: true }).click();
    await drawer.getByTestId('task-notes').waitFor();
    await waitUntil(() => drawer.getByTestId('task-percent').textContent(), (text) => !!text?.includes('60'), 'the percentage of the note');
    await screenshot(page, `tasks-drawer-${lang}`);

    // Started, the task keeps its audit: its form offers no withdrawal (the type declares the hold), and the
    // server refuses one with the catalogued message.
    await page.goto('/office/task');
    await page.getByTestId(`bill-open-${saved.id}`).click();
    const form2 = page.getByTestId('bill-form');
    await form2.getByTestId('bill-status').waitFor();
    expect(await form2.getByTestId('bill-op-abandonAudit').count()).toBe(0);
    await screenshot(page, `tasks-kept-audit-${lang}`);
    const refused = await api(suite.server, 'POST', '/admin/office/task/abandonAudit', { id: saved.id }, await storedToken(page));
    expect(refused.message).toBe('TaskStartedProhibitAbandonAudit');
    await form2.getByTestId('bill-close').click();

    await page.goto('/office/taskBoard');
    await page.getByTestId('task-column-InProgress').getByTestId(`task-card-${saved.billCode}`).click();
    await drawer.getByTestId('task-complete').click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await waitUntil(() => drawer.getByTestId('task-stage').textContent(), (text) => text === TASK_STAGE_LABELS.Completed[lang], 'the task completed');
    await page.keyboard.press('Escape');
    await page.getByTestId('task-column-Completed').getByTestId(`task-card-${saved.billCode}`).waitFor();
    await screenshot(page, `tasks-board-${lang}`);
    const detail = await call<{ stage: string; percent: number; notes: unknown[] }>('GET', `/admin/office/task/${saved.id}/work`);
    expect(detail).toMatchObject({ stage: 'Completed', percent: 100 });
    expect(detail.notes).toHaveLength(1);
  }, 240_000);
});
