/** Shared texts (namespace `common`). */
export default {
  defaultSystemTitle: '后台管理系统',
  backHome: '返回首页',
  confirm: '确定',
  cancel: '取消',
  tip: '温馨提示',
  refresh: '刷新',
  loading: '加载中…',
  noAccess: '无权访问',
  versionUpdated: '页面已更新，是否刷新页面并重新登录？',
  language: '语言',
  langZh: '简体中文',
  langEn: 'English',
  pageTitle: {
    login: '登录',
    forbidden: '无权访问',
    notFound: '页面不存在',
    serverError: '服务器错误',
  },
  errorPage: {
    forbidden: '抱歉，您无权访问该页面',
    notFound: '抱歉，您访问的页面不存在',
    serverError: '抱歉，服务器出错了',
    offline: '网络连接已断开，请检查网络后重试',
  },
};
