import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Empty, Form, Input, InputNumber, Modal, Progress, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { TASK_PRIORITY_LABELS, TASK_STAGE_LABELS, type TaskDetail } from '@p8/contract/tasks';
import RichText from '../../../../components/RichText/index.tsx';
import AttachmentUpload from '../../../../components/Upload/AttachmentUpload.tsx';
import { addProgress, completeTask, getTaskWork, startTask, terminateTask } from '../api.ts';
import { PRIORITY_COLORS, STAGE_COLORS } from '../colors.ts';
const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/**
 * One task on the board: what it asks (content, attachments), who does it by when, its progress notes, and the
 * steps the caller may take now — the server answers them (`operations`: their buttons, their part in the task and
 * its stage), so a button is never offered for a step it would refuse.
 */
export default function TaskDrawer({ id, lang, onClose, onChanged }: { id: number; lang: 'zh' | 'en'; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'office' });
  const { message, modal } = App.useApp();
  const task = useQuery({ queryKey: ['office-task-work', id], queryFn: () => getTaskWork(id) });
  const [busy, setBusy] = useState(false);
  const [noting, setNoting] = useState(false);
  const [terminating, setTerminating] = useState(false);
  const [noteForm] = Form.useForm<{ text: string; percent?: number | null }>();
  const [reasonForm] = Form.useForm<{ reason: string }>();

  const act = async (step: () => Promise<TaskDetail>, done: string) => {
    setBusy(true);
    try {
      await step();
      message.success(done);
      await task.refetch();
      onChanged();
      return true;
    } catch {
      // The HTTP client has shown the refusal.
      return false;
    } finally {
      setBusy(false);
    }
  };

  const data = task.data;
  const can = (op: string) => !!data?.operations.includes(op as never);

  return (
    <Drawer open width={720} title={data ? `${data.billCode} ${data.title}` : ''} onClose={onClose} destroyOnHidden data-testid="task-drawer"
      extra={
        data && (
          <Space>
            {can('start') && (
              <Button type="primary" loading={busy} onClick={() => void act(() => startTask(id), t('started'))} data-testid="task-start">
                {t('start')}
              </Button>
            )}
            {can('progress') && (
              <Button onClick={() => setNoting(true)} data-testid="task-progress">
                {t('addNote')}
              </Button>
            )}
            {can('complete') && (
              <Button type="primary" loading={busy} data-testid="task-complete"
                onClick={() => void modal.confirm({ title: t('confirmComplete'), okText: t('complete'), cancelText: t('cancel'), onOk: () => act(() => completeTask(id), t('completed')) })}>
                {t('complete')}
              </Button>
            )}
            {can('terminate') && (
              <Button danger onClick={() => setTerminating(true)} data-testid="task-terminate">
                {t('terminate')}
              </Button>
            )}
          </Space>
        )
      }
    >
      <Spin spinning={task.isFetching && !data}>
        {data && (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={2} size="small" bordered>
              <Descriptions.Item label={t('stage')}>
                <Tag color={STAGE_COLORS[data.stage]} data-testid="task-stage">
                  {TASK_STAGE_LABELS[data.stage][lang]}
                </Tag>
                {data.overdue && <Tag color="red">{t('overdue')}</Tag>}
              </Descriptions.Item>
              <Descriptions.Item label={t('priority')}>{data.priority ? <Tag color={PRIORITY_COLORS[data.priority]}>{TASK_PRIORITY_LABELS[data.priority][lang]}</Tag> : '—'}</Descriptions.Item>
              <Descriptions.Item label={t('dueDate')}>{data.dueDate}</Descriptions.Item>
              <Descriptions.Item label={t('creator')}>{data.createdByName}</Descriptions.Item>
              <Descriptions.Item label={t('assignees')} span={2}>
                {data.assignees.map((a) => a.name).join('、')}
              </Descriptions.Item>
              <Descriptions.Item label={t('progress')} span={2}>
                <Progress percent={data.percent ?? 0} size="small" style={{ maxWidth: 320 }} data-testid="task-percent" />
              </Descriptions.Item>
              <Descriptions.Item label={t('startedAt')}>{when(data.startedAt)}</Descriptions.Item>
              <Descriptions.Item label={t('finishedAt')}>{when(data.finishedAt)}</Descriptions.Item>
              {data.reason && (
                <Descriptions.Item label={t('reason')} span={2}>
                  {data.reason}
                </Descriptions.Item>
              )}
            </Descriptions>
            <div>
              <Typography.Title level={5}>{t('content')}</Typography.Title>
              {data.content ? <RichText value={data.content} disabled height={100} data-testid="task-content" /> : <Typography.Text type="secondary">{t('noContent')}</Typography.Text>}
            </div>
            {data.attachments.length > 0 && (
              <div>
                <Typography.Title level={5}>{t('attachments')}</Typography.Title>
                <AttachmentUpload value={data.attachments} disabled />
              </div>
            )}
            <div>
              <Typography.Title level={5}>{t('notes')}</Typography.Title>
              {data.notes.length ? (
                <Timeline
                  data-testid="task-notes"
                  items={data.notes.map((n) => ({
                    key: n.id,
                    children: (
                      <Space direction="vertical" size={0}>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {n.adminName} · {when(n.createdAt)}
                          {n.percent !== null ? ` · ${n.percent}%` : ''}
                        </Typography.Text>
                        <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{n.text}</Typography.Text>
                      </Space>
                    ),
                  }))}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noNotes')} />
              )}
            </div>
          </Space>
        )}
      </Spin>
      <Modal open={noting} title={t('addNote')} okText={t('save')} cancelText={t('cancel')} confirmLoading={busy} destroyOnHidden
        onCancel={() => setNoting(false)}
        onOk={async () => {
          const values = await noteForm.validateFields();
          if (await act(() => addProgress(id, values.text, values.percent ?? null), t('noted'))) {
            setNoting(false);
            noteForm.resetFields();
          }
        }}
      >
        <Form form={noteForm} layout="vertical" preserve={false}>
          <Form.Item name="text" label={t('noteText')} rules={[{ required: true, whitespace: true, message: t('noteText') }]}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={2000} placeholder={t('notePlaceholder')} data-testid="task-note-text" />
          </Form.Item>
          <Form.Item name="percent" label={t('percent')}>
            <InputNumber min={0} max={100} precision={0} addonAfter="%" style={{ width: 160 }} data-testid="task-note-percent" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={terminating} title={t('terminate')} okText={t('terminate')} okButtonProps={{ danger: true }} cancelText={t('cancel')} confirmLoading={busy} destroyOnHidden
        onCancel={() => setTerminating(false)}
        onOk={async () => {
          const values = await reasonForm.validateFields();
          if (await act(() => terminateTask(id, values.reason), t('terminated'))) setTerminating(false);
        }}
      >
        <Form form={reasonForm} layout="vertical" preserve={false}>
          <Form.Item name="reason" label={t('terminateReason')} rules={[{ required: true, whitespace: true, message: t('terminateReason') }]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} data-testid="task-terminate-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
