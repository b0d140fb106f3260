import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Empty, Input, Progress, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TASK_PRIORITY_LABELS, TASK_STAGE_LABELS, type TaskCard, type TaskStage } from '@p8/contract/tasks';
import { useGlobalStore } from '../../../stores/global.ts';
import { getTaskBoard } from './api.ts';
import TaskDrawer from './components/TaskDrawer.tsx';
import { PRIORITY_COLORS } from './colors.ts';

/** The board's columns: drafts and tasks in review share "to audit" (their creator and reviewers act in the task list). */
const COLUMNS: Array<{ key: string; stages: TaskStage[]; color: string }> = [
  { key: 'toAudit', stages: ['Draft', 'InReview'], color: '#8c8c8c' },
  { key: 'NotStarted', stages: ['NotStarted'], color: '#1677ff' },
  { key: 'InProgress', stages: ['InProgress'], color: '#fa8c16' },
  { key: 'Completed', stages: ['Completed'], color: '#52c41a' },
  { key: 'Terminated', stages: ['Terminated'], color: '#ff4d4f' },
];

/**
 * Office → task board (menu office_taskBoard): the tasks the caller sees — their data scope, and every task they are
 * an assignee of — as cards in a column per stage (to audit, not started, in progress, completed, terminated), each
 * column by due date. A card opens the task's drawer: its content, assignees, progress notes and the steps the
 * caller may take (start, progress note, complete, terminate). Tasks are written and audited in the task list.
 */
export default function TaskBoardPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'office' });
  const lang = useGlobalStore((s) => s.language) === 'en' ? 'en' : 'zh';
  const [mine, setMine] = useState<'false' | 'true'>('false');
  const [keyword, setKeyword] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const board = useQuery({ queryKey: ['office-task-board', mine, keyword], queryFn: () => getTaskBoard({ mine, ...(keyword ? { keyword } : {}) }) });
  const tasksOf = (stages: TaskStage[]) => (board.data?.columns ?? []).filter((c) => stages.includes(c.stage)).flatMap((c) => c.tasks);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="task-board">
      <Space wrap>
        <Segmented
          value={mine}
          onChange={(v) => setMine(v as 'true' | 'false')}
          options={[
            { value: 'false', label: t('all') },
            { value: 'true', label: t('mine') },
          ]}
          data-testid="task-board-mine"
        />
        <Input.Search allowClear placeholder={t('search')} style={{ width: 260 }} onSearch={(v) => setKeyword(v.trim())} data-testid="task-board-search" />
        <Button icon={<ReloadOutlined />} onClick={() => void board.refetch()}>
          {t('refresh')}
        </Button>
      </Space>
      <Spin spinning={board.isFetching}>
        <div style={{ display: 'grid', gridTemplateColumns: `repeat(${COLUMNS.length}, minmax(220px, 1fr))`, gap: 12, overflowX: 'auto' }}>
          {COLUMNS.map((column) => {
            const tasks = tasksOf(column.stages);
            const title = column.key === 'toAudit' ? t('toAudit') : TASK_STAGE_LABELS[column.key as TaskStage][lang];
            return (
              <div key={column.key} data-testid={`task-column-${column.key}`} style={{ background: 'var(--ant-color-fill-quaternary, #fafafa)', borderRadius: 8, padding: 8, minHeight: 240 }}>
                <Space style={{ padding: '4px 4px 8px' }}>
                  <Badge color={column.color} />
                  <Typography.Text strong>{title}</Typography.Text>
                  <Typography.Text type="secondary">{tasks.length}</Typography.Text>
                </Space>
                <Space direction="vertical" size={8} style={{ width: '100%' }}>
                  {tasks.length ? tasks.map((task) => <TaskCardView key={task.id} task={task} lang={lang} onOpen={() => setOpenId(task.id)} />) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />}
                </Space>
              </div>
            );
          })}
        </div>
      </Spin>
      {openId !== null && <TaskDrawer id={openId} lang={lang} onClose={() => setOpenId(null)} onChanged={() => void board.refetch()} />}
    </Space>
  );
}

function TaskCardView({ task, lang, onOpen }: { task: TaskCard; lang: 'zh' | 'en'; onOpen: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'office' });
  return (
    <Card size="small" hoverable onClick={onOpen} data-testid={`task-card-${task.billCode}`} styles={{ body: { padding: 10 } }}>
      <Space direction="vertical" size={4} style={{ width: '100%' }}>
        <Space size={4} wrap>
          {task.priority && <Tag color={PRIORITY_COLORS[task.priority]}>{TASK_PRIORITY_LABELS[task.priority][lang]}</Tag>}
          {task.stage === 'Draft' && <Tag>{TASK_STAGE_LABELS.Draft[lang]}</Tag>}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {task.billCode}
          </Typography.Text>
        </Space>
        <Typography.Text strong ellipsis={{ tooltip: task.title }}>
          {task.title}
        </Typography.Text>
        <Typography.Text type={task.overdue ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
          {t('dueOn', { date: task.dueDate })}
          {task.overdue ? ` · ${t('overdue')}` : ''}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
          {task.assignees.map((a) => a.name).join('、')}
        </Typography.Text>
        {task.stage === 'InProgress' && <Progress percent={task.percent ?? 0} size="small" />}
      </Space>
    </Card>
  );
}
