import { useTranslation } from 'react-i18next';
import { systemTitleOf } from '../app/system-config.ts';
import { useSystemConfig } from '../hooks/useSystemConfig.ts';

/** Copyright line with the system name and, when configured, the ICP record number. */
export default function AppFooter() {
  const { t, i18n } = useTranslation();
  const config = useSystemConfig();
  const name = systemTitleOf(config ?? null, i18n.language === 'en' ? 'en' : 'zh');
  return (
    <footer className="p8-footer" data-testid="layout-footer">
      <span>
        © {new Date().getFullYear()} {name} · {t('layout.footer')}
      </span>
      {config?.icp ? (
        <a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">
          {config.icp}
        </a>
      ) : null}
    </footer>
  );
}
