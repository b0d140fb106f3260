import { Segmented } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useGlobalStore, type Language } from '../../../stores/global.ts';

/** zh / en switch of the login page. */
export function LangSwitch() {
  const { t } = useTranslation();
  const language = useGlobalStore((s) => s.language);
  const setLanguage = useGlobalStore((s) => s.setLanguage);
  return (
    <div className="login-lang" data-testid="login-lang-switch" title={t('common.language')}>
      <GlobalOutlined className="login-lang-icon" />
      <Segmented<Language>
        size="small"
        value={language}
        onChange={setLanguage}
        options={[
          { value: 'zh', label: <span data-testid="login-lang-zh">中文</span> },
          { value: 'en', label: <span data-testid="login-lang-en">EN</span> },
        ]}
      />
    </div>
  );
}
