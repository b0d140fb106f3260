import { useEffect } from 'react';
import { App, Button, Card, Form, Input, Skeleton, Space, Tabs, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { AgreementKind, type AgreementRow } from '@p8/contract/base';
import { useAuth } from '../../../components/Auth/index.tsx';
import { useFormSave } from '../../../hooks/useFormSave.ts';
import RichText from '../../../components/RichText/index.tsx';
import { getAgreements, saveAgreement } from './api/agreements.ts';

const QUERY_KEY = ['base', 'agreement'];

/** One agreement: its title and rich-text content, saved on its own. */
function AgreementForm({ row, editable }: { row: AgreementRow; editable: boolean }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.agreement' });
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ title: string; content: string }>();

  useEffect(() => form.setFieldsValue({ title: row.title, content: row.content }), [row, form]);

  const { saving, submit: save } = useFormSave(form, async (values) => {
    const saved = await saveAgreement({ kind: row.kind, title: values.title.trim(), content: values.content ?? '' });
    queryClient.setQueryData<AgreementRow[]>(QUERY_KEY, (rows) => rows?.map((r) => (r.kind === saved.kind ? saved : r)));
    message.success(t('saved', { name: saved.title }));
  });

  return (
    <Form form={form} layout="vertical" disabled={!editable || saving} initialValues={{ title: row.title, content: row.content }} data-testid={`agreement-form-${row.kind}`}>
      <Form.Item name="title" label={t('title')} rules={[{ required: true, whitespace: true, message: t('titlePlaceholder') }, { max: 100 }]}>
        <Input maxLength={100} placeholder={t('titlePlaceholder')} style={{ maxWidth: 480 }} data-testid={`agreement-title-${row.kind}`} />
      </Form.Item>
      <Form.Item name="content" label={t('content')} extra={t('sanitizedTip')}>
        <RichText height={420} data-testid={`agreement-content-${row.kind}`} />
      </Form.Item>
      <Space size="middle">
        {editable && (
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid={`agreement-save-${row.kind}`}>
            {t('save')}
          </Button>
        )}
        <Typography.Text type="secondary">
          {row.updatedAt ? t('updatedBy', { name: row.updatedByName || '—', time: dayjs(row.updatedAt).format('YYYY-MM-DD HH:mm') }) : t('neverSaved')}
        </Typography.Text>
      </Space>
    </Form>
  );
}

/** Base content → agreements: the user agreement and the privacy policy customers accept (rich text, sanitised by the server). */
export default function AgreementPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.agreement' });
  const can = useAuth();
  const query = useQuery({ queryKey: QUERY_KEY, queryFn: getAgreements });
  const rows = query.data;
  return (
    <Card className="p8-base-agreement" data-testid="agreement-page">
      {!rows ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Tabs
          items={AgreementKind.map((kind) => {
            const row = rows.find((r) => r.kind === kind);
            return { key: kind, label: t(`kinds.${kind}`), forceRender: false, children: row && <AgreementForm row={row} editable={can('base_agreement_update')} /> };
          })}
        />
      )}
    </Card>
  );
}
