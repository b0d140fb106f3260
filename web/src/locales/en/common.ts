/** Shared texts (namespace `common`). */
export default {
  // Short enough for the side menu's logo row (the Chinese title is six characters).
  defaultSystemTitle: 'Back Office',
  backHome: 'Back home',
  confirm: 'OK',
  cancel: 'Cancel',
  tip: 'Tip',
  refresh: 'Refresh',
  loading: 'Loading…',
  noAccess: 'No access',
  versionUpdated: 'The page has been updated. Click to refresh the page and log in again?',
  language: 'Language',
  langZh: '简体中文',
  langEn: 'English',
  pageTitle: {
    login: 'Login',
    forbidden: 'No access',
    notFound: 'Page not found',
    serverError: 'Server error',
  },
  errorPage: {
    forbidden: 'Sorry, you do not have access to this page',
    notFound: 'Sorry, the page you visited does not exist',
    serverError: 'Sorry, something went wrong on the server',
    offline: 'You are offline, please check your network and try again',
  },
};
