import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { App, Badge, Button, Card, Popconfirm, Segmented, Space, Tabs, Tag, Typography, type ButtonProps } from 'antd';
import { CheckOutlined, DeleteOutlined, EyeInvisibleOutlined, EyeOutlined, InboxOutlined, SendOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MessageBox, MessageRow } from '@p8/contract/office';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { deleteMessages } from './api/delete-messages.ts';
import { UNREAD_COUNT_QUERY_KEY, useUnreadCount } from '../../../components/Message/api/get-unread-count.ts';
import { listMessages } from '../../../components/Message/api/list-messages.ts';
import { markAllRead } from './api/mark-all-read.ts';
import { markRead } from '../../../components/Message/api/mark-read.ts';
import { hideMessages } from '../../../components/Message/api/hide-messages.ts';
import MessageDrawer from '../../../components/Message/MessageDrawer.tsx';
import SendDialog, { type SendDialogState } from './components/send-dialog.tsx';
import './message.css';

type ReadFilter = 'all' | 'unread' | 'read';

const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** Plain text of a message's HTML for the list (shown as text, never as HTML). */
const preview = (html: string) =>
  html
    .replace(/<(br|\/p|\/li|\/h\d)[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * System → messages, the message center: my inbox (messages of colleagues and the system's notices) and my
 * sent messages. The receiver hides what they received; the sender deletes what they wrote (a notice is
 * never deleted). The inbox follows the live unread count: a new message shows without a reload.
 */
export default function MessagePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const { message } = App.useApp();
  const can = useAuth();
  const queryClient = useQueryClient();
  const unread = useUnreadCount();
  const table = useRef<ProTableAction<MessageRow>>(undefined);
  const [box, setBox] = useState<MessageBox>('inbox');
  const [readFilter, setReadFilter] = useState<ReadFilter>('all');
  const [opened, setOpened] = useState<MessageRow | null>(null);
  const [send, setSend] = useState<SendDialogState>({ open: false });

  const refreshUnread = useCallback(() => void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_QUERY_KEY }), [queryClient]);
  const reload = useCallback(() => {
    table.current?.reload();
    refreshUnread();
  }, [refreshUnread]);

  const read = async (ids: number[]) => {
    const { updated } = await markRead(ids);
    message.success(t('message.markedRead', { count: updated }));
    table.current?.clearSelection();
    reload();
  };

  const readAll = async () => {
    if (!unread) {
      message.info(t('message.nothingUnread'));
      return;
    }
    const { updated } = await markAllRead();
    message.success(t('message.markedRead', { count: updated }));
    reload();
  };

  const hide = async (ids: number[]) => {
    const { updated } = await hideMessages(ids);
    message.success(t('message.hidden', { count: updated }));
    table.current?.clearSelection();
    reload();
  };

  // A message came or went elsewhere (the live count changed): the inbox shows it.
  const seen = useRef(unread);
  useEffect(() => {
    if (seen.current === unread) return;
    seen.current = unread;
    if (box === 'inbox') table.current?.reload();
  }, [unread, box]);

  const remove = async (ids: number[]) => {
    await deleteMessages(ids);
    message.success(t('common.deleted'));
    table.current?.clearSelection();
    reload();
  };

  const reply = (row: MessageRow) => {
    // A notice of the system has nobody to answer.
    if (row.senderId === null) return;
    setOpened(null);
    setSend({
      open: true,
      initial: { receiverIds: [row.senderId], title: /^re:/i.test(row.title) ? row.title : `Re: ${row.title}`.slice(0, 100) },
      known: [{ id: row.senderId, label: row.senderName || `#${row.senderId}`, account: '', deptName: null }],
    });
  };

  const inbox = box === 'inbox';
  const params = useMemo(() => ({ box, isRead: readFilter === 'all' ? undefined : readFilter === 'read' }), [box, readFilter]);

  const columns = useMemo<ProColumn<MessageRow>[]>(() => {
    const titleColumn: ProColumn<MessageRow> = {
      prop: 'title',
      title: t('message.messageTitle'),
      search: true,
      lockSetting: true,
      width: 260,
      render: (_, row) => (
        <Space size={6} className={['p8-message-title', inbox && !row.isRead ? 'is-unread' : ''].join(' ')}>
          {inbox && <Badge status={row.isRead ? 'default' : 'processing'} />}
          {row.isNotice && (
            <Tag color="blue" title={t('message.noticeTip')} style={{ marginInlineEnd: 0 }} data-testid={`row-notice-${row.id}`}>
              {t('message.notice')}
            </Tag>
          )}
          <Typography.Link onClick={() => setOpened(row)} data-testid={`row-open-${row.id}`} ellipsis style={{ maxWidth: 230 }}>
            {row.title}
          </Typography.Link>
        </Space>
      ),
    };
    const person: ProColumn<MessageRow> = inbox
      ? { prop: 'senderName', title: t('message.sender'), width: 130, render: (_, row) => row.senderName || `#${row.senderId}` }
      : { prop: 'receiverName', title: t('message.receiver'), width: 130, render: (_, row) => row.receiverName || `#${row.receiverId}` };
    return [
      titleColumn,
      person,
      {
        prop: 'content',
        title: t('message.content'),
        width: 280,
        ellipsis: true,
        render: (_, row) => {
          const text = preview(row.content);
          return text ? <Typography.Text type="secondary">{text}</Typography.Text> : <Typography.Text type="secondary">—</Typography.Text>;
        },
      },
      { prop: 'createdAt', title: t('message.sentAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange', order: 1 } },
      {
        prop: 'isRead',
        title: t('message.readState'),
        width: 100,
        render: (_, row) =>
          row.isRead ? <Tag color="default">{t('message.read')}</Tag> : <Tag color={inbox ? 'orange' : 'gold'}>{inbox ? t('message.unread') : t('message.notReadYet')}</Tag>,
      },
      { prop: 'readAt', title: t('message.readAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: inbox ? 260 : 170,
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setOpened(row)} data-testid={`row-view-${row.id}`}>
              {t('common.view')}
            </Button>
            {inbox && !row.isRead && (
              <Button type="link" size="small" icon={<CheckOutlined />} onClick={() => void read([row.id]).catch(() => undefined)} data-testid={`row-read-${row.id}`}>
                {t('message.markRead')}
              </Button>
            )}
            {inbox && (
              <Popconfirm title={t('message.hideConfirm', { title: row.title })} onConfirm={() => hide([row.id]).catch(() => undefined)} okButtonProps={testId(`row-hide-confirm-${row.id}`)}>
                <Button type="link" size="small" icon={<EyeInvisibleOutlined />} data-testid={`row-hide-${row.id}`}>
                  {t('message.hide')}
                </Button>
              </Popconfirm>
            )}
            {/* Only the sender deletes: my sent messages only, never a notice. */}
            {!inbox && !row.isNotice && (
              <Auth code="system_message_delete">
                <Popconfirm
                  title={t('message.deleteConfirm', { title: row.title })}
                  onConfirm={() => remove([row.id]).catch(() => undefined)}
                  okButtonProps={{ danger: true, ...testId(`row-delete-confirm-${row.id}`) }}
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Auth>
            )}
          </Space>
        ),
      },
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps -- row actions read the latest state through the render
  }, [t, inbox]);

  const selectable = inbox || can('system_message_delete');

  return (
    <div className="p8-system-message">
      <Card className="p8-message-tabs" styles={{ body: { padding: '0 16px' } }}>
        <Tabs
          activeKey={box}
          onChange={(key) => {
            setBox(key as MessageBox);
            setReadFilter('all');
          }}
          items={[
            {
              key: 'inbox',
              label: (
                <span data-testid="message-tab-inbox">
                  <InboxOutlined /> {t('message.inbox')}
                  <Badge count={unread} size="small" overflowCount={99} offset={[6, -2]} data-testid="message-unread-badge" />
                </span>
              ),
            },
            {
              key: 'outbox',
              label: (
                <span data-testid="message-tab-outbox">
                  <SendOutlined /> {t('message.outbox')}
                </span>
              ),
            },
          ]}
          tabBarExtraContent={
            <Segmented<ReadFilter>
              value={readFilter}
              onChange={setReadFilter}
              options={[
                { value: 'all', label: t('message.all') },
                { value: 'unread', label: inbox && unread ? `${t('message.unread')} (${unread})` : t('message.unread') },
                { value: 'read', label: t('message.read') },
              ]}
              data-testid="message-read-filter"
            />
          }
        />
      </Card>
      <ProTable<MessageRow>
        key={box}
        data-testid="message-table"
        listType={`system_message_${box}`}
        rowKey="id"
        columns={columns}
        request={listMessages}
        params={params}
        actionRef={table}
        onLoad={refreshUnread}
        rowSelection={selectable}
        onRow={(row) => ({ className: inbox && !row.isRead ? 'p8-message-row-unread' : undefined })}
        toolbar={({ selectedRowKeys }) => (
          <>
            <Auth code="system_message_send">
              <Button type="primary" icon={<SendOutlined />} onClick={() => setSend({ open: true })} data-testid="message-send">
                {t('message.send')}
              </Button>
            </Auth>
            {inbox ? (
              <>
                <Button icon={<CheckOutlined />} disabled={!selectedRowKeys.length} onClick={() => void read(selectedRowKeys.map(Number)).catch(() => undefined)} data-testid="message-read-selected">
                  {t('message.markSelectedRead')}
                </Button>
                <Button onClick={() => void readAll().catch(() => undefined)} data-testid="message-read-all">
                  {t('message.markAllRead')}
                </Button>
                <Popconfirm
                  title={t('message.hideSelectedConfirm', { count: selectedRowKeys.length })}
                  disabled={!selectedRowKeys.length}
                  onConfirm={() => hide(selectedRowKeys.map(Number)).catch(() => undefined)}
                  okButtonProps={testId('message-hide-selected-confirm')}
                >
                  <Button icon={<EyeInvisibleOutlined />} disabled={!selectedRowKeys.length} data-testid="message-hide-selected">
                    {t('message.hideSelected')}
                  </Button>
                </Popconfirm>
                {unread > 0 && (
                  <Typography.Text type="secondary" data-testid="message-unread-count">
                    {t('message.unreadCount', { count: unread })}
                  </Typography.Text>
                )}
              </>
            ) : (
              <Auth code="system_message_delete">
                <Popconfirm
                  title={t('common.deleteSelectedConfirm', { count: selectedRowKeys.length })}
                  disabled={!selectedRowKeys.length}
                  onConfirm={() => remove(selectedRowKeys.map(Number)).catch(() => undefined)}
                  okButtonProps={{ danger: true, ...testId('message-delete-selected-confirm') }}
                >
                  <Button danger icon={<DeleteOutlined />} disabled={!selectedRowKeys.length} data-testid="message-delete-selected">
                    {t('common.deleteSelected')}
                  </Button>
                </Popconfirm>
              </Auth>
            )}
          </>
        )}
      />
      <MessageDrawer
        row={opened}
        onClose={() => setOpened(null)}
        onChanged={reload}
        onReply={reply}
        onDelete={async (row) => {
          await remove([row.id]);
          setOpened(null);
        }}
      />
      <SendDialog
        state={send}
        onClose={() => setSend((s) => ({ ...s, open: false }))}
        onSent={() => {
          if (box === 'outbox') reload();
          else refreshUnread();
        }}
      />
    </div>
  );
}
