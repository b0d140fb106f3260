import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { systemTitleOf } from '../app/system-config.ts';
import { HOME_PATH } from '../app/navigate.ts';
import { useSystemConfig } from '../hooks/useSystemConfig.ts';

/** The default mark when the system config has no logo: a rounded square in the primary colour. */
function DefaultMark() {
  return (
    <svg viewBox="0 0 32 32" width="30" height="30" aria-hidden>
      <rect x="1" y="1" width="30" height="30" rx="8" fill="var(--p8-primary, #409EFF)" />
      <path d="M9 23V9h7.2c3.3 0 5.3 1.8 5.3 4.6S19.5 18.2 16.2 18.2H12.6V23H9Zm3.6-7.7h3.3c1.3 0 2-.6 2-1.7s-.7-1.7-2-1.7h-3.3v3.4Z" fill="#fff" />
      <circle cx="22.5" cy="21.5" r="2.5" fill="#fff" opacity=".85" />
    </svg>
  );
}

interface LogoProps {
  /** Only the mark (collapsed side menu, columns bar). */
  collapsed?: boolean;
  className?: string;
}

/** Logo and title from the public system config; a click goes home. */
export default function Logo({ collapsed = false, className = '' }: LogoProps) {
  const config = useSystemConfig();
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const title = systemTitleOf(config ?? null, i18n.language === 'en' ? 'en' : 'zh');
  const logo = config?.logo || config?.system_icon || '';
  return (
    <div className={`p8-logo ${collapsed ? 'is-collapsed' : ''} ${className}`} onClick={() => navigate(HOME_PATH)} role="link" title={title}>
      {logo ? <img src={logo} alt="" className="p8-logo-img" /> : <DefaultMark />}
      {!collapsed && <span className="p8-logo-title">{title}</span>}
    </div>
  );
}
