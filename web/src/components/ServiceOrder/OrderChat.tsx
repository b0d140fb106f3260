import { useEffect, useRef, useState } from 'react';
import { Badge, Button, Empty, Input, Space, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { errorText } from '../../app/http.ts';
import { useAuthStore } from '../../stores/auth.ts';
import { useAuth } from '../Auth/index.tsx';
import { sendOrderMessage } from './api/chat.ts';
import { useOrderChat } from './use-order-chat.ts';
import './service-order.css';

/** The chat on an order: messages live over /api/ws, sent through the API. */
export default function OrderChat({ orderId }: { orderId: number }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'service.chat' });
  const { t: tRoot } = useTranslation();
  const can = useAuth();
  const myId = useAuthStore((s) => s.userInfo?.id);
  const { messages, state, error, add } = useOrderChat(orderId);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const mayWrite = can('service_order_message|service_myOrder_message');

  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [messages.length]);

  const send = async () => {
    const content = text.trim();
    if (!content) return;
    setSending(true);
    setSendError(null);
    try {
      add(await sendOrderMessage({ orderId, content }));
      setText('');
    } catch (e) {
      setSendError(errorText(e));
    } finally {
      setSending(false);
    }
  };

  const status = { connecting: 'processing', live: 'success', offline: 'error' } as const;
  return (
    <div className="p8-order-chat" data-testid="order-chat">
      <div className="p8-order-chat-head">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Badge status={status[state]} text={t(`state.${state}`)} data-testid={`chat-state-${state}`} />
      </div>
      <div className="p8-order-chat-list" ref={list} data-testid="chat-messages">
        {messages.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={error ? tRoot(`error.${error}`) : t('empty')} />
        ) : (
          messages.map((m) => (
            <div key={m.id} className={`p8-order-chat-item${m.senderId === myId ? ' mine' : ''}`} data-testid="chat-message">
              <div className="p8-order-chat-meta">
                <Typography.Text type="secondary">
                  {m.senderName} · {dayjs(m.createdAt).format('MM-DD HH:mm:ss')}
                </Typography.Text>
              </div>
              <div className="p8-order-chat-bubble">{m.content}</div>
            </div>
          ))
        )}
      </div>
      {mayWrite && (
        <Space.Compact style={{ width: '100%' }}>
          <Input.TextArea
            value={text}
            onChange={(e) => setText(e.target.value)}
            onPressEnter={(e) => {
              if (!e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
            autoSize={{ minRows: 1, maxRows: 4 }}
            maxLength={2000}
            placeholder={t('placeholder')}
            data-testid="chat-input"
          />
          <Button type="primary" icon={<SendOutlined />} loading={sending} disabled={!text.trim()} onClick={() => void send()} data-testid="chat-send">
            {t('send')}
          </Button>
        </Space.Compact>
      )}
      {sendError && <Typography.Text type="danger">{sendError}</Typography.Text>}
    </div>
  );
}
