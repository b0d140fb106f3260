import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO, screenshot, startSuite, storedToken, type Suite } from '../harness.ts';

/**
 * Issue 11 evidence: two browser contexts (two sessions of the demo administrator, as a dispatcher and a
 * technician would be) open the same service order's chat and see each other's messages live over the
 * WebSocket, without a reload. (The same across two server processes sharing PostgreSQL and Redis, with a
 * restart: chat-cluster.spec.ts in the browser, server/test/chat-cluster.test.ts on the WebSocket itself.)
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('chat');
});
afterAll(async () => {
  await suite?.close();
});

async function openChat(page: Page, orderId: number) {
  await page.goto('/service/order');
  await page.getByTestId(`order-view-${orderId}`).click();
  await page.getByTestId('order-chat').waitFor();
  await page.getByTestId('chat-state-live').waitFor();
}

async function say(page: Page, text: string) {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
}

const messages = (page: Page) => page.getByTestId('chat-message');

describe('service order chat (browser)', () => {
  it('two contexts on one order see each other’s messages live', async () => {
    const dispatcher = await suite.signedInPage(DEMO, { viewport: { width: 1440, height: 900 } });
    const technician = await suite.signedInPage(DEMO, { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const created = await api<{ id: number }>(
      suite.server,
      'POST',
      '/admin/service/proxyOrder',
      { serviceName: '空调清洗（聊天测试）', customerName: '王先生', customerPhone: '13800001234', address: '上海市浦东新区张江路 1 号' },
      await storedToken(dispatcher),
    );
    expect(created.status).toBe(0);
    const orderId = created.data.id;
    await openChat(dispatcher, orderId);
    await openChat(technician, orderId);

    await say(dispatcher, '师傅，客户希望上午到。');
    await messages(technician).filter({ hasText: '师傅，客户希望上午到。' }).waitFor({ timeout: 10_000 });
    await say(technician, 'OK, I will be there at 10.');
    await messages(dispatcher).filter({ hasText: 'OK, I will be there at 10.' }).waitFor({ timeout: 10_000 });

    // Each side shows both, in the order they were sent, and nothing twice.
    for (const page of [dispatcher, technician]) expect(await messages(page).allInnerTexts()).toEqual([expect.stringContaining('师傅，客户希望上午到。'), expect.stringContaining('OK, I will be there at 10.')]);
    await screenshot(dispatcher, 'chat-dispatcher-zh');
    await screenshot(technician, 'chat-technician-en');
  }, 120_000);
});
