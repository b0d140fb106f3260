import { useCallback, useEffect, useRef, useState } from 'react';
import { Input, Tooltip } from 'antd';
import { SafetyCertificateOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImgCaptcha } from '@p8/contract/auth';
import { getImgCaptcha } from '../api/get-img-captcha.ts';

/**
 * A picture captcha: fetched when enabled, refreshed on click and after every use (single use). Plain
 * state rather than TanStack Query, which loads with the signed-in app and not with this page.
 */
export function useImgCaptcha(enabled: boolean) {
  const [captcha, setCaptcha] = useState<ImgCaptcha | null>(null);
  const [loading, setLoading] = useState(enabled);
  // Only the newest request's answer is shown (a slow earlier one must not replace it).
  const latest = useRef(0);
  const fetchCaptcha = useCallback(() => {
    const request = ++latest.current;
    return getImgCaptcha()
      .then(
        (next) => {
          if (request === latest.current) setCaptcha(next);
        },
        // The HTTP client has shown the failure; clicking the image tries again.
        () => {},
      )
      .finally(() => {
        if (request === latest.current) setLoading(false);
      });
  }, []);
  useEffect(() => {
    if (enabled) void fetchCaptcha();
  }, [enabled, fetchCaptcha]);
  const refresh = useCallback(async () => {
    setLoading(true);
    await fetchCaptcha();
  }, [fetchCaptcha]);
  return { captcha: enabled ? captcha : null, loading, refresh };
}

interface CaptchaInputProps {
  value?: string;
  onChange?: (value: string) => void;
  captcha: ImgCaptcha | null;
  loading: boolean;
  onRefresh: () => void;
  /** `login`, `register` or `forget`: prefix of the data-testids. */
  testIdPrefix: string;
}

/** Input plus the captcha image beside it; clicking the image fetches a new one. */
export function CaptchaInput({ value, onChange, captcha, loading, onRefresh, testIdPrefix }: CaptchaInputProps) {
  const { t } = useTranslation();
  return (
    <div className="login-captcha-row">
      <Input
        size="large"
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        prefix={<SafetyCertificateOutlined />}
        placeholder={t('login.captchaPlaceholder')}
        maxLength={10}
        autoComplete="off"
        data-testid={`${testIdPrefix}-captcha`}
      />
      <Tooltip title={t('login.captchaRefresh')}>
        <button
          type="button"
          className="login-captcha-img"
          onClick={onRefresh}
          aria-label={t('login.captchaRefresh')}
          data-testid={`${testIdPrefix}-captcha-img`}
          data-captcha-id={captcha?.captchaId}
          // Present only when the server runs with EXPOSE_CODES_FOR_TESTS (end-to-end tests).
          data-captcha-code={captcha?.code}
        >
          {captcha ? <img src={captcha.image} alt={t('login.captchaAlt')} draggable={false} /> : <ReloadOutlined spin={loading} />}
        </button>
      </Tooltip>
    </div>
  );
}
