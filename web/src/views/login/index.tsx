import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Segmented } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { loadSystemConfig, systemTitleOf, useSystemConfigStore } from '../../app/system-config.ts';
import { useGlobalStore } from '../../stores/global.ts';
import { AccountForm } from './components/account-form.tsx';
import { BrandPanel } from './components/brand-panel.tsx';
import { LangSwitch } from './components/lang-switch.tsx';
import { completeLogin, greetingOf } from './components/login-helpers.ts';
import { MobileForm } from './components/mobile-form.tsx';
import { SystemLogo } from './components/system-logo.tsx';
import './login.css';

// Registering and retrieving a password are opened from the sign-in form: their forms load then.
const RegisterForm = lazy(() => import('./components/register-form.tsx').then((m) => ({ default: m.RegisterForm })));
const ForgetForm = lazy(() => import('./components/forget-form.tsx').then((m) => ({ default: m.ForgetForm })));

type Mode = 'login' | 'register' | 'forget';
type LoginTab = 'account' | 'mobile';

/** Register or retrieve the password: back to login above, the heading, the form. */
function ModePanel({ mode, onBack, children }: { mode: 'register' | 'forget'; onBack: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <a className="login-back" onClick={onBack} data-testid={`${mode}-to-login`}>
        <ArrowLeftOutlined /> {t('login.backToLogin')}
      </a>
      <h2 className="login-heading">{t(`login.${mode}Title`)}</h2>
      <p className="login-sub">{t(`login.${mode}Subtitle`)}</p>
      <Suspense fallback={null}>{children}</Suspense>
    </>
  );
}

/** The login screen: account / mobile login, register, retrieve password. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const config = useSystemConfigStore((s) => s.config);
  const language = useGlobalStore((s) => s.language);
  const [mode, setMode] = useState<Mode>('login');
  const [tab, setTab] = useState<LoginTab>('account');
  const [registeredName, setRegisteredName] = useState<string>();
  const [greeting, setGreeting] = useState(() => greetingOf(new Date().getHours()));

  useEffect(() => {
    void loadSystemConfig();
    const timer = setInterval(() => setGreeting(greetingOf(new Date().getHours())), 60_000);
    return () => clearInterval(timer);
  }, []);

  const title = systemTitleOf(config, language);
  const logo = config?.logo || config?.system_icon || undefined;
  const openRegister = config?.openRegister !== false;

  const onToken = async (token: string) => {
    await completeLogin(token, search.get('redirect'), navigate);
  };

  const backToLogin = () => setMode('login');

  return (
    <div className="login-page" data-testid="login-page">
      <div className="login-bg-shape login-bg-shape-a" />
      <div className="login-bg-shape login-bg-shape-b" />
      <div className="login-shell">
        <BrandPanel title={title} logo={logo} icp={config?.icp} />

        <main className="login-panel">
          <div className="login-panel-top">
            <div className="login-panel-logo">
              <SystemLogo src={logo} title={title} size={32} />
              <span>{title}</span>
            </div>
            <LangSwitch />
          </div>

          <div className="login-panel-body">
            {mode === 'login' && (
              <>
                <p className="login-greeting" data-testid="login-greeting">
                  {t(`login.greeting.${greeting}`)}
                </p>
                <h2 className="login-heading">{t('login.welcome', { title })}</h2>
                {/* Segmented, not Tabs: the language switch already loads it, and Tabs would add ≈ 17 KB to this page. */}
                <Segmented<LoginTab>
                  className="login-tabs"
                  block
                  value={tab}
                  onChange={setTab}
                  options={[
                    { value: 'account', label: <span data-testid="login-tab-account">{t('login.tabAccount')}</span> },
                    { value: 'mobile', label: <span data-testid="login-tab-mobile">{t('login.tabMobile')}</span> },
                  ]}
                />
                <div className="login-tab-body" role="tabpanel">
                  {tab === 'account' ? (
                    <AccountForm onToken={onToken} onForget={() => setMode('forget')} initialName={registeredName} />
                  ) : (
                    <MobileForm onToken={onToken} />
                  )}
                </div>
                {openRegister && (
                  <p className="login-switch">
                    {t('login.noAccount')}{' '}
                    <a className="login-link" onClick={() => setMode('register')} data-testid="login-to-register">
                      {t('login.toRegister')}
                    </a>
                  </p>
                )}
              </>
            )}

            {mode === 'register' && (
              <ModePanel mode="register" onBack={backToLogin}>
                <RegisterForm
                  onDone={(name) => {
                    setRegisteredName(name);
                    setTab('account');
                    setMode('login');
                  }}
                />
                <p className="login-switch">
                  {t('login.haveAccount')}{' '}
                  <a className="login-link" onClick={backToLogin} data-testid="register-back-login">
                    {t('login.backToLogin')}
                  </a>
                </p>
              </ModePanel>
            )}

            {mode === 'forget' && (
              <ModePanel mode="forget" onBack={backToLogin}>
                <ForgetForm
                  onDone={() => {
                    setTab('account');
                    setMode('login');
                  }}
                />
              </ModePanel>
            )}
          </div>
        </main>
      </div>
    </div>
  );
}
