import { useTranslation } from 'react-i18next';
import { ErrorPage } from './components/error-page.tsx';

/** Server error; also where an offline browser is sent, which it then says. */
export default function ServerError() {
  const { t } = useTranslation();
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  return <ErrorPage status="500" description={t(offline ? 'common.errorPage.offline' : 'common.errorPage.serverError')} />;
}
