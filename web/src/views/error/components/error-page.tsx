import { Button, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../../app/navigate.ts';

/**
 * The 403 / 404 / 500 pages: the status large, a translated line and a way back home. Drawn with the
 * theme's tokens rather than antd's `Result` illustrations, which would put 26 KB of pictures on the
 * login page (these pages are not lazy, so that they still show when the network is gone).
 */
export function ErrorPage({ status, description }: { status: '403' | '404' | '500'; description: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const accent = status === '500' ? token.colorError : status === '403' ? token.colorWarning : token.colorPrimary;
  return (
    <div
      style={{ minHeight: '100%', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 20, padding: 24, textAlign: 'center' }}
      data-testid={`error-${status}`}
    >
      <span style={{ fontSize: 96, lineHeight: 1, fontWeight: 800, letterSpacing: 4, color: accent }}>{status}</span>
      <span style={{ fontSize: 16, color: token.colorTextSecondary, maxWidth: 480 }}>{description}</span>
      <Button type="primary" size="large" data-testid="error-back-home" onClick={() => navigate(HOME_PATH)} style={{ marginTop: 8 }}>
        {t('common.backHome')}
      </Button>
    </div>
  );
}
