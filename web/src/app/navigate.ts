/**
 * Navigation for code outside React components (HTTP client, session helpers). The router registers
 * itself here; until it has, a full page load is used.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;
let currentPath: () => string = () => window.location.pathname + window.location.search;

export function registerNavigator(navigate: Navigate, pathOf: () => string) {
  navigator = navigate;
  currentPath = pathOf;
}

export function navigateTo(to: string, options?: { replace?: boolean }) {
  if (navigator) navigator(to, options);
  else window.location.assign(to);
}

/** Path and query of the current location. */
export function currentLocation(): string {
  return currentPath();
}

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/home/index';

/** `/login?redirect=<where the user was>` (no redirect back to a white-listed page). */
export function loginPathFor(wanted: string | undefined): string {
  if (!wanted || /^\/(login|403|404|500)(\/|\?|$)/.test(wanted) || wanted === '/') return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(wanted)}`;
}
