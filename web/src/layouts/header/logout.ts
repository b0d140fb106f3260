import i18n from '../../locales/index.ts';
import { feedback } from '../../app/feedback.ts';
import { LOGIN_PATH, navigateTo } from '../../app/navigate.ts';
import { clearSession } from '../../app/session.ts';
import { logoutRequest } from '../../app/api/logout.ts';

/** Asks, then ends the session on the server and here, and goes to login. */
export function confirmLogout() {
  feedback.modal.confirm({
    title: i18n.t('layout.logout.title'),
    content: i18n.t('layout.logout.content'),
    okText: i18n.t('layout.common.confirm'),
    cancelText: i18n.t('layout.common.cancel'),
    okButtonProps: { 'data-testid': 'logout-confirm' } as Record<string, string>,
    onOk: async () => {
      // The session ends here whatever the server says (it may already be gone).
      await logoutRequest().catch(() => undefined);
      clearSession();
      navigateTo(LOGIN_PATH, { replace: true });
      feedback.message.success(i18n.t('layout.logout.success'));
    },
  });
}
