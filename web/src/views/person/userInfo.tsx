import { Alert, Avatar, Card, Col, Descriptions, Row, Tabs, Tag } from 'antd';
import { IdcardOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth.ts';
import PasswordForm from './components/password-form.tsx';
import UserInfoForm from './components/user-info-form.tsx';
import './person.css';

/** Personal centre (/person/userInfo): a profile summary, personal data and password forms. */
export default function UserInfoPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'person' });
  const user = useAuthStore((s) => s.userInfo);
  const sexText = user?.sex === 1 ? t('sexMale') : user?.sex === 2 ? t('sexFemale') : t('sexUnknown');

  return (
    <div className="p8-person" data-testid="person-page">
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={8} xl={7}>
          <Card variant="borderless" className="p8-person-card">
            <div className="p8-person-head">
              <Avatar size={88} src={user?.avatar || undefined} icon={<UserOutlined />} className="p8-person-avatar" />
              <div className="p8-person-name">{user?.nickName || user?.realName || user?.name}</div>
              <div className="p8-person-role">
                {user?.roleName}
                {user?.isInitialAdmin && (
                  <Tag color="gold" style={{ marginInlineStart: 6 }}>
                    {t('initialAdmin')}
                  </Tag>
                )}
              </div>
            </div>
            <Descriptions
              column={1}
              size="small"
              className="p8-person-facts"
              items={[
                { key: 'name', label: t('name'), children: user?.name || '—' },
                { key: 'realName', label: t('realName'), children: user?.realName || '—' },
                { key: 'phone', label: t('phone'), children: user?.phone || '—' },
                { key: 'email', label: t('email'), children: user?.email || '—' },
                { key: 'sex', label: t('sex'), children: sexText },
                { key: 'dept', label: t('dept'), children: user?.deptName || '—' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={16} xl={17}>
          <Card variant="borderless" className="p8-person-card">
            <Tabs
              items={[
                {
                  key: 'basic',
                  label: (
                    <span data-testid="person-tab-basic">
                      <IdcardOutlined /> {t('basic')}
                    </span>
                  ),
                  children: (
                    <div className="p8-person-form">
                      <UserInfoForm name="personPage" columns={2} />
                    </div>
                  ),
                },
                {
                  key: 'security',
                  label: (
                    <span data-testid="person-tab-security">
                      <LockOutlined /> {t('security')}
                    </span>
                  ),
                  children: (
                    <div className="p8-person-form is-narrow">
                      <Alert type="info" showIcon title={t('securityTip')} style={{ marginBottom: 16 }} />
                      <PasswordForm name="personPassword" />
                    </div>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
