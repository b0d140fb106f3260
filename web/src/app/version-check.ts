import i18n from '../locales/index.ts';
import { feedback } from './feedback.ts';
import { clearSession } from './session.ts';

/**
 * "The page has been updated" check (shell features). The build writes `dist/version.json`
 * with the build id that is also compiled into the bundle; a different id on the server means a new
 * build is deployed. Polled every 5 minutes and on window focus; not in development.
 */
const INTERVAL_MS = 5 * 60_000;
const VERSION_URL = '/version.json';

let noticeOpen = false;
let started = false;

async function fetchBuildId(): Promise<string | null> {
  try {
    const response = await fetch(`${VERSION_URL}?t=${Date.now()}`, { cache: 'no-store', headers: { Accept: 'application/json' } });
    if (!response.ok) return null;
    const body = (await response.json()) as { buildId?: unknown };
    return typeof body.buildId === 'string' ? body.buildId : null;
  } catch {
    return null;
  }
}

function showNotice() {
  if (noticeOpen) return;
  noticeOpen = true;
  feedback.modal.confirm({
    title: i18n.t('common.tip'),
    content: i18n.t('common.versionUpdated'),
    okText: i18n.t('common.refresh'),
    cancelText: i18n.t('common.cancel'),
    onOk: () => {
      clearSession();
      window.location.reload();
    },
    onCancel: () => {
      noticeOpen = false;
    },
  });
}

export async function checkVersion(current = __APP_BUILD_ID__): Promise<boolean> {
  const latest = await fetchBuildId();
  const changed = !!latest && latest !== current;
  if (changed) showNotice();
  return changed;
}

export function startVersionCheck() {
  if (started || import.meta.env.DEV) return;
  started = true;
  setInterval(() => void checkVersion(), INTERVAL_MS);
  window.addEventListener('focus', () => void checkVersion());
}
