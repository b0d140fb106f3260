import { useEffect, useRef } from 'react';
import { Avatar, Button, Col, Form, Input, Radio, Row } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../app/feedback.ts';
import { formatRules } from '../../../app/system-config.ts';
import { useSystemConfig } from '../../../hooks/useSystemConfig.ts';
import { useAuthStore } from '../../../stores/auth.ts';
import { updatePersonalInfo, type PersonalInfo } from '../api/update-info.ts';

interface UserInfoFormProps {
  onSuccess?: () => void;
  /** Extra buttons beside save (e.g. cancel in a dialog). */
  extra?: React.ReactNode;
  /** Two columns on wide screens (the page) or one (a dialog). */
  columns?: 1 | 2;
  name?: string;
}

const AVATAR_URL = /^(https?:\/\/|\/)\S+$/;

/** The signed-in user's personal data: avatar URL, nick name, real name, phone, email, sex. */
export default function UserInfoForm({ onSuccess, extra, columns = 1, name = 'userInfo' }: UserInfoFormProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'person' });
  const user = useAuthStore((s) => s.userInfo);
  const setUserInfo = useAuthStore((s) => s.setUserInfo);
  const config = useSystemConfig();
  const [form] = Form.useForm<PersonalInfo>();
  const avatar = Form.useWatch('avatar', form);

  // Fill the form when the user data arrives or changes — not when a kept-alive view is shown again
  // (its effects re-run then), which would wipe what the user was typing.
  const filledFrom = useRef<typeof user>(null);
  useEffect(() => {
    if (!user || filledFrom.current === user) return;
    filledFrom.current = user;
    form.setFieldsValue({ avatar: user.avatar, nickName: user.nickName, realName: user.realName, phone: user.phone, email: user.email, sex: user.sex });
  }, [user, form]);

  const mutation = useMutation({
    mutationFn: updatePersonalInfo,
    onSuccess: (updated) => {
      setUserInfo(updated);
      feedback.message.success(t('saved'));
      onSuccess?.();
    },
  });

  const span = columns === 2 ? { xs: 24, md: 12 } : { span: 24 };
  const phonePattern = formatRules(config ?? null).phone;
  const validAvatar = typeof avatar === 'string' && AVATAR_URL.test(avatar) ? avatar : undefined;

  return (
    <Form
      form={form}
      name={name}
      layout="vertical"
      onFinish={(v) =>
        mutation.mutate({
          avatar: v.avatar?.trim() ?? '',
          nickName: v.nickName?.trim() ?? '',
          realName: v.realName?.trim() ?? '',
          phone: v.phone?.trim() ?? '',
          email: v.email?.trim() ?? '',
          sex: v.sex ?? 0,
        })
      }
      autoComplete="off"
    >
      <div className="p8-avatar-field">
        <Avatar size={72} src={validAvatar} icon={<UserOutlined />} className="p8-avatar-preview" />
        <Form.Item
          name="avatar"
          label={t('avatarUrl')}
          extra={t('avatarTip')}
          rules={[{ pattern: AVATAR_URL, message: t('avatarUrlError') }]}
          style={{ flex: 1, marginBottom: 16 }}
        >
          <Input data-testid="person-avatar" maxLength={500} allowClear placeholder="https://" />
        </Form.Item>
      </div>
      <Row gutter={16}>
        <Col {...span}>
          <Form.Item label={t('name')}>
            <Input value={user?.name ?? ''} disabled data-testid="person-name" />
          </Form.Item>
        </Col>
        <Col {...span}>
          <Form.Item name="nickName" label={t('nickName')} rules={[{ max: 30 }]}>
            <Input data-testid="person-nickName" maxLength={30} />
          </Form.Item>
        </Col>
        <Col {...span}>
          <Form.Item name="realName" label={t('realName')} rules={[{ max: 30 }]}>
            <Input data-testid="person-realName" maxLength={30} />
          </Form.Item>
        </Col>
        <Col {...span}>
          <Form.Item name="phone" label={t('phone')} rules={[{ pattern: phonePattern, message: t('phoneFormat') }]}>
            <Input data-testid="person-phone" maxLength={20} />
          </Form.Item>
        </Col>
        <Col {...span}>
          <Form.Item name="email" label={t('email')} rules={[{ type: 'email', message: t('emailFormat') }]}>
            <Input data-testid="person-email" maxLength={100} />
          </Form.Item>
        </Col>
        <Col {...span}>
          <Form.Item name="sex" label={t('sex')}>
            <Radio.Group
              data-testid="person-sex"
              options={[
                { value: 1, label: t('sexMale') },
                { value: 2, label: t('sexFemale') },
                { value: 0, label: t('sexUnknown') },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item style={{ marginBottom: 0 }}>
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
          {extra}
          <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="person-save">
            {t('save')}
          </Button>
        </div>
      </Form.Item>
    </Form>
  );
}
