import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SystemLogo } from './system-logo.tsx';

/** Brand side of the login page: title, slogan, features and a CSS-drawn dashboard illustration. */
export function BrandPanel({ title, logo, icp }: { title: string; logo?: string; icp?: string }) {
  const { t } = useTranslation();
  const bars = [42, 64, 50, 78, 58, 90, 72];
  return (
    <aside className="login-brand">
      <div className="login-brand-glow login-brand-glow-a" />
      <div className="login-brand-glow login-brand-glow-b" />
      <header className="login-brand-head">
        <SystemLogo src={logo} title={title} size={40} />
        <span className="login-brand-title">{title}</span>
      </header>

      <div className="login-brand-body">
        <h1 className="login-brand-slogan">{t('login.brand.slogan')}</h1>
        <p className="login-brand-desc">{t('login.brand.description')}</p>

        <div className="login-art" aria-hidden>
          <div className="login-art-card login-art-main">
            <div className="login-art-dots">
              <i />
              <i />
              <i />
            </div>
            <div className="login-art-kpis">
              <span />
              <span />
              <span />
            </div>
            <div className="login-art-chart">
              {bars.map((h, i) => (
                <b key={i} style={{ height: `${h}%`, animationDelay: `${i * 80}ms` }} />
              ))}
              <svg className="login-art-line" viewBox="0 0 100 40" preserveAspectRatio="none">
                <polyline points="0,30 16,22 33,26 50,12 66,18 83,6 100,10" />
              </svg>
            </div>
          </div>
          <div className="login-art-card login-art-side">
            <div className="login-art-donut" />
            <div className="login-art-lines">
              <span />
              <span />
              <span />
            </div>
          </div>
        </div>

        <ul className="login-brand-features">
          {(['feature1', 'feature2', 'feature3'] as const).map((key) => (
            <li key={key}>
              <CheckCircleFilled /> {t(`login.brand.${key}`)}
            </li>
          ))}
        </ul>
      </div>

      <footer className="login-brand-foot">
        © {new Date().getFullYear()} {title}
        {icp ? <span className="login-brand-icp">{icp}</span> : null}
      </footer>
    </aside>
  );
}
