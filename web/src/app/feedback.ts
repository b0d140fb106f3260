import { message as staticMessage, notification as staticNotification } from 'antd';
import type { ModalFuncProps } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';

/**
 * antd's message / notification / modal for code outside React (HTTP client, route guard, version
 * check). The providers swap in the context-aware instances, so toasts and dialogs follow the theme and
 * locale: message and notification from the root (`providers.tsx`), the modal from the signed-in
 * screens' antd `App` (`screen-providers.tsx`). Until then the static ones are used — the modal loaded
 * only when one is asked for, so that the sign-in page does not download antd's modal.
 */
interface ModalApi {
  confirm: (props: ModalFuncProps) => { destroy: () => void };
}

interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalApi;
}

const lazyModal: ModalApi = {
  confirm(props) {
    let handle: { destroy: () => void } | undefined;
    let destroyed = false;
    void import('antd/es/modal').then(({ default: Modal }) => {
      if (!destroyed) handle = Modal.confirm(props);
    });
    return {
      destroy() {
        destroyed = true;
        handle?.destroy();
      },
    };
  },
};

export const feedback: Feedback = {
  message: staticMessage,
  notification: staticNotification,
  modal: lazyModal,
};

export function setFeedback(next: Pick<Feedback, 'message' | 'notification'>) {
  Object.assign(feedback, next);
}

const mountedModals: ModalApi[] = [];

/**
 * A mounted antd `App` offers its modal; the returned function withdraws it when the App unmounts. The
 * most recently mounted one still on the page is used, the lazily loaded static modal when none is.
 */
export function provideModal(modal: ModalApi): () => void {
  mountedModals.push(modal);
  feedback.modal = modal;
  return () => {
    mountedModals.splice(mountedModals.lastIndexOf(modal), 1);
    feedback.modal = mountedModals.at(-1) ?? lazyModal;
  };
}
