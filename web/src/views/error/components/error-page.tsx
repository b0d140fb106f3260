import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../../app/navigate.ts';

/** The 403 / 404 / 500 pages: antd's illustration, a translated line and a way back home. */
export function ErrorPage({ status, description }: { status: '403' | '404' | '500'; description: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div style={{ minHeight: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 24 }} data-testid={`error-${status}`}>
      <Result
        status={status}
        title={<span style={{ fontSize: 48, fontWeight: 700, letterSpacing: 2 }}>{status}</span>}
        subTitle={<span style={{ fontSize: 16 }}>{description}</span>}
        extra={
          <Button type="primary" size="large" data-testid="error-back-home" onClick={() => navigate(HOME_PATH)}>
            {t('common.backHome')}
          </Button>
        }
      />
    </div>
  );
}
