import { message as staticMessage, notification as staticNotification, Modal } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { ModalFuncProps } from 'antd';

/**
 * antd's message / notification / modal for code outside React (HTTP client, route guard,
 * version check). `<FeedbackBridge />` in the providers swaps in the context-aware instances from
 * `App.useApp()`, so toasts follow the theme and locale; before it mounts the static ones are used.
 */
interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: { confirm: (props: ModalFuncProps) => { destroy: () => void } };
}

export const feedback: Feedback = {
  message: staticMessage,
  notification: staticNotification,
  modal: Modal,
};

export function setFeedback(next: Feedback) {
  feedback.message = next.message;
  feedback.notification = next.notification;
  feedback.modal = next.modal;
}
