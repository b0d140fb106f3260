import { useEffect, useRef } from 'react';
import { App, Button, Descriptions, Drawer, Empty, Popconfirm, Skeleton, Space, Tag, Typography, type ButtonProps } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, EyeInvisibleOutlined, RollbackOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { MessageRow } from '@p8/contract/office';
import Auth from '../Auth/index.tsx';
import RichText from '../RichText/index.tsx';
import { useAuthStore } from '../../stores/auth.ts';
import { getMessage } from './api/get-message.ts';
import { hideMessages } from './api/hide-messages.ts';
import { UNREAD_COUNT_QUERY_KEY } from './api/get-unread-count.ts';
import { markRead } from './api/mark-read.ts';
import './message.css';

const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');

export interface MessageDrawerProps {
  /** The message shown (the row it was opened from: shown at once, then refreshed). */
  row: MessageRow | null;
  onClose: () => void;
  /** A message changed (read) or went (deleted, hidden): the list reloads. */
  onChanged: () => void;
  onDelete: (row: MessageRow) => Promise<void>;
  onReply?: (row: MessageRow) => void;
}

/**
 * One message: who, when, read state and the content (rendered by the read-only editor, which keeps
 * only what its schema knows — no scripts or handlers from another user's HTML). Opening an unread
 * message of my inbox marks it read. Its receiver hides it from their inbox here, wherever it was opened
 * (the message screen, the header's bell): the same rule as the screen's rows — the receiver's own inbox,
 * no button code (`PUT /admin/office/message/hide`); the drawer closes and `onChanged` tells the opener.
 */
export default function MessageDrawer({ row, onClose, onChanged, onDelete, onReply }: MessageDrawerProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const { message: toast } = App.useApp();
  const me = useAuthStore((s) => s.userInfo?.id);
  const queryClient = useQueryClient();
  const detail = useQuery({ queryKey: ['office', 'message', row?.id], queryFn: () => getMessage(row!.id), enabled: !!row, staleTime: 0 });
  const message = detail.data ?? row;
  const marked = useRef<number | null>(null);

  useEffect(() => {
    if (!row || row.isRead || row.receiverId !== me || marked.current === row.id) return;
    marked.current = row.id;
    markRead([row.id], { quiet: true })
      .then(() => {
        void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_QUERY_KEY });
        void queryClient.invalidateQueries({ queryKey: ['office', 'message', row.id] });
        onChanged();
      })
      .catch(() => undefined);
  }, [row, me, queryClient, onChanged]);

  const hide = async (shown: MessageRow) => {
    const { updated } = await hideMessages([shown.id]);
    toast.success(t('message.hidden', { count: updated }));
    void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_QUERY_KEY });
    onChanged();
    onClose();
  };

  // A notice is never deleted (its receiver hides it); a notice of the system has nobody to reply to.
  const mine = !!message && message.senderId === me && !message.isNotice;
  const incoming = !!message && message.receiverId === me;

  return (
    <Drawer
      open={!!row}
      onClose={onClose}
      size={640}
      title={t('message.detail')}
      destroyOnHidden
      data-testid="message-drawer"
      extra={
        message && (
          <Space>
            {incoming && (
              <Popconfirm title={t('message.hideConfirm', { title: message.title })} onConfirm={() => hide(message).catch(() => undefined)} okButtonProps={{ ...({ 'data-testid': 'message-drawer-hide-confirm' } as ButtonProps) }}>
                <Button icon={<EyeInvisibleOutlined />} data-testid="message-drawer-hide">
                  {t('message.hide')}
                </Button>
              </Popconfirm>
            )}
            {incoming && onReply && message.senderId !== null && (
              <Auth code="system_message_send">
                <Button icon={<RollbackOutlined />} onClick={() => onReply(message)} data-testid="message-reply">
                  {t('message.reply')}
                </Button>
              </Auth>
            )}
            {mine && (
              <Auth code="system_message_delete">
                <Popconfirm
                  title={t('message.deleteConfirm', { title: message.title })}
                  onConfirm={() => onDelete(message).catch(() => undefined)}
                  okButtonProps={{ danger: true, ...({ 'data-testid': 'message-drawer-delete-confirm' } as ButtonProps) }}
                >
                  <Button danger icon={<DeleteOutlined />} data-testid="message-drawer-delete">
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Auth>
            )}
          </Space>
        )
      }
    >
      {!message ? (
        <Skeleton active />
      ) : (
        <div className="p8-message-detail">
          <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="message-drawer-title">
            {message.title}
          </Typography.Title>
          <Descriptions
            column={2}
            size="small"
            className="p8-message-meta"
            items={[
              { key: 'sender', label: t('message.sender'), children: message.senderName || `#${message.senderId}` },
              { key: 'receiver', label: t('message.receiver'), children: message.receiverName || `#${message.receiverId}` },
              { key: 'sentAt', label: t('message.sentAt'), children: when(message.createdAt) },
              {
                key: 'read',
                label: t('message.readState'),
                children: message.isRead ? (
                  <Space size={4}>
                    <Tag icon={<CheckCircleOutlined />} color="success" style={{ marginInlineEnd: 0 }}>
                      {t('message.read')}
                    </Tag>
                    <Typography.Text type="secondary">{when(message.readAt)}</Typography.Text>
                  </Space>
                ) : (
                  <Tag color="orange">{incoming ? t('message.unread') : t('message.notReadYet')}</Tag>
                ),
              },
            ]}
          />
          <div className="p8-message-content">
            {message.content ? (
              <RichText value={message.content} disabled height={120} data-testid="message-drawer-content" />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('message.noContent')} />
            )}
          </div>
        </div>
      )}
    </Drawer>
  );
}
