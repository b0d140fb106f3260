import { useTranslation } from 'react-i18next';
import { ErrorPage } from './components/error-page.tsx';

export default function Forbidden() {
  const { t } = useTranslation();
  return <ErrorPage status="403" description={t('common.errorPage.forbidden')} />;
}
