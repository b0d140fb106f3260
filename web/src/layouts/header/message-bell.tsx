import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Empty, List, Popover, Tooltip, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { MessageRow } from '@p8/contract/office';
import { listMessages } from '../../components/Message/api/list-messages.ts';
import { UNREAD_COUNT_QUERY_KEY, useUnreadCount, useUnreadLive } from '../../components/Message/api/get-unread-count.ts';
import { useLiveUnread } from '../../components/Message/use-live-unread.ts';
import { useMenuStore } from '../../stores/menu.ts';

// The drawer brings the read-only rich-text view: loaded when a message is opened, not with the shell.
const MessageDrawer = lazy(() => import('../../components/Message/MessageDrawer.tsx'));

/** The newest unread messages the bell lists. */
const LATEST = 5;
const LATEST_QUERY_KEY = ['office', 'message', 'bell'] as const;

/**
 * The inbox of every signed-in user, in the header: the unread count, the newest unread messages, each
 * opened (and so read) in the message drawer, and the way to the message screen for those who may open
 * it. A message reaches every colleague, whatever the receiver's roles grant — without this, someone
 * whose roles lack the message screen never saw what was sent to them. The count is live (use-live-unread.ts):
 * a message stored for the user, or read or hidden elsewhere, shows at once without a reload.
 */
export default function MessageBell() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useLiveUnread();
  const count = useUnreadCount();
  const live = useUnreadLive((s) => s.live);
  const [open, setOpen] = useState(false);
  const [tipOpen, setTipOpen] = useState(false);
  const [reading, setReading] = useState<MessageRow | null>(null);
  const messageScreen = useMenuStore((s) => s.flatMenuList.find((m) => m.name === 'system_message'));
  const latest = useQuery({
    queryKey: [...LATEST_QUERY_KEY, count],
    queryFn: () => listMessages({ box: 'inbox', isRead: false, current: 1, pageSize: LATEST }),
    enabled: open,
    staleTime: 0,
  });
  const rows = latest.data?.data ?? [];

  const content = (
    <div className="p8-message-bell" data-testid="message-bell-list">
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noUnread')} />
      ) : (
        <List
          size="small"
          dataSource={rows}
          renderItem={(row) => (
            <List.Item
              className="p8-message-bell-item"
              onClick={() => {
                setOpen(false);
                setReading(row);
              }}
              data-testid={`message-bell-item-${row.id}`}
            >
              <List.Item.Meta
                title={<Typography.Text ellipsis={{ tooltip: row.title }}>{row.title}</Typography.Text>}
                description={`${row.senderName} · ${dayjs(row.createdAt).format('YYYY-MM-DD HH:mm')}`}
              />
            </List.Item>
          )}
        />
      )}
      {messageScreen && (
        <Button
          type="link"
          block
          onClick={() => {
            setOpen(false);
            void navigate(messageScreen.path);
          }}
          data-testid="message-bell-all"
        >
          {t('allMessages')}
        </Button>
      )}
    </div>
  );

  return (
    <>
      <Popover
        content={content}
        title={t('messages')}
        trigger="click"
        placement="bottomRight"
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setTipOpen(false);
        }}
      >
        {/* The tooltip hides while the list is open (it covered the list's corner). */}
        <Tooltip title={t('messages')} placement="bottom" open={tipOpen && !open} onOpenChange={setTipOpen}>
          <Button type="text" className="p8-tool" aria-label={t('messages')} data-testid="message-bell" data-live={live ? 'true' : 'false'}>
            <Badge count={count} size="small" overflowCount={99} data-testid="message-bell-count">
              <BellOutlined />
            </Badge>
          </Button>
        </Tooltip>
      </Popover>
      {reading && (
        <Suspense fallback={null}>
          <MessageDrawer
            row={reading}
            onClose={() => setReading(null)}
            onChanged={() => void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_QUERY_KEY })}
            // Deleting is the sender's, from the message screen; the bell shows received messages only.
            onDelete={async () => undefined}
          />
        </Suspense>
      )}
    </>
  );
}
