/**
 * The part of the error catalogue (errors.ts) the web's first page needs at once: transport failures
 * (shown even when no further file can be downloaded), sign-in and its forms, the session. The rest of
 * the catalogue is downloaded on the first other error, or with the signed-in screens.
 */
export interface CatalogueText {
  zh: string;
  en: string;
}

export const firstErrors = {
  // Generic and network
  RequestBodyTooLarge: { zh: '请求内容过大', en: 'The request body is too large' },
  RequestUrlTooLong: { zh: '请求地址或参数过长', en: 'The request address or its parameters are too long' },
  RequestHeadersTooLarge: { zh: '请求头过大', en: 'The request headers are too large' },
  UnsupportedContentType: { zh: '不支持的请求内容类型', en: 'Unsupported content type of the request' },
  MalformedJson: { zh: '请求内容不是有效的JSON', en: 'The request body is not valid JSON' },
  MultipartMalformed: { zh: '上传的表单数据不完整或格式错误', en: 'The uploaded form data is incomplete or malformed' },
  MethodNotAllowed: { zh: '不支持的请求方法', en: 'The request method is not allowed' },
  Success: { zh: '操作成功', en: 'Success' },
  Error: { zh: '操作失败', en: 'Operation failed' },
  NetworkError: { zh: '网络错误，请稍后重试', en: 'Network error, please try again later' },
  TimeOut: { zh: '请求超时，请稍后重试', en: 'Request timed out, please try again later' },
  ServerError: { zh: '服务器内部错误', en: 'Internal server error' },
  ServerStopping: { zh: '服务正在重启，请稍后重试', en: 'The server is restarting, please try again shortly' },
  NotFound: { zh: '请求的资源不存在', en: 'The requested resource does not exist' },
  BadRequest: { zh: '请求参数错误', en: 'Bad request parameter' },
  ParamError: { zh: '参数错误', en: 'Invalid parameter' },
  Unauthorized: { zh: '登录已过期，请重新登录', en: 'Your login has expired, please log in again' },
  Forbidden: { zh: '没有操作权限', en: 'You do not have permission for this operation' },
  TooManyRequests: { zh: '操作过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  DataNotExist: { zh: '数据不存在', en: 'The data does not exist' },
  NotLoggedIn: { zh: '未授权，请登录', en: 'Not authorised, please log in' },
  FileNotFound: { zh: '文件不存在', en: 'File not found' },
  DataChanged: { zh: '数据已被修改，请刷新后重试', en: 'The data has been changed, please refresh and try again' },
  NoMenuPermission: { zh: '当前账号无菜单权限，请联系管理员', en: 'This account has no menu permission, please contact the administrator' },

  // Captcha, password, phone
  PhoneFormatError: { zh: '手机号格式错误', en: 'Invalid phone number format' },
  EmailFormatError: { zh: '邮箱格式错误', en: 'Invalid email format' },
  PasswordFormatError: { zh: '密码格式错误', en: 'Invalid password format' },
  ImgCaptchaError: { zh: '图片验证码错误', en: 'Incorrect picture captcha' },
  ImgCaptchaRequired: { zh: '失败次数过多，请输入图片验证码', en: 'Too many failed attempts, please enter the picture captcha' },
  ImgCaptchaExpired: { zh: '图片验证码已过期，请刷新', en: 'The picture captcha has expired, please refresh it' },
  PhoneCaptchaError: { zh: '短信验证码错误', en: 'Incorrect SMS code' },
  PhoneCaptchaExpired: { zh: '短信验证码已过期，请重新获取', en: 'The SMS code has expired, please request a new one' },
  PasswordError: { zh: '账号或密码错误', en: 'Incorrect account or password' },
  PasswordInconsistent: { zh: '两次密码不一致', en: 'The two passwords are inconsistent' },
  OldPasswordError: { zh: '原密码错误', en: 'The old password is incorrect' },
  SendPhoneCaptchaError: { zh: '短信验证码发送失败', en: 'Failed to send the SMS code' },
  PhoneIsRegistered: { zh: '该手机号已注册', en: 'This phone number is already registered' },
  PhoneNotRegistered: { zh: '该手机号未注册', en: 'This phone number is not registered' },
  AdminNotExist: { zh: '账号不存在', en: 'The account does not exist' },
  AdminIsLock: { zh: '账号已被锁定，请联系管理员', en: 'The account is locked, please contact the administrator' },
  TenantIsDisabled: { zh: '租户已被禁用', en: 'The tenant is disabled' },
  AdminExist: { zh: '账号已存在', en: 'The account already exists' },
  RegisterClosed: { zh: '暂未开放注册', en: 'Registration is currently closed' },
  AccountFormatError: { zh: '账号须以字母开头，4-20位字母、数字或下划线', en: 'The account must start with a letter and have 4-20 letters, digits or underscores' },
  AdminTemporarilyLocked: { zh: '登录失败次数过多，账号已锁定15分钟', en: 'Too many failed logins, the account is locked for 15 minutes' },
  SmsSendTooFrequent: { zh: '短信发送过于频繁，请稍后再试', en: 'SMS codes are being requested too often, please wait' },

  // Session, tenant and permissions
  SessionExpired: { zh: '会话已过期，请重新登录', en: 'The session has expired, please log in again' },
  SessionRevoked: { zh: '账号已在其他地方登录，请重新登录', en: 'You were signed out by another login, please log in again' },
  ModuleExpired: { zh: '该模块已过期，请联系管理员续费', en: 'This module has expired, please contact the administrator to renew' },
  ModuleNotOpen: { zh: '该模块未开通', en: 'This module is not enabled' },
  TenantIsLogoff: { zh: '租户已注销', en: 'The tenant has been logged off' },
  OnlyInitialAdminCanOperate: { zh: '仅初始管理员可操作', en: 'Only the initial administrator can do this' },
  OnlyCreatorCanOperate: { zh: '只有创建人才能操作', en: 'Only the creator can operate' },
  SuperRoleProhibitSetPermission: { zh: '超级管理员角色禁止设置权限', en: 'Permissions cannot be set on the super administrator role' },
  CannotDeleteSelf: { zh: '不能删除自己', en: 'You cannot delete yourself' },
  CannotDisableSelf: { zh: '不能禁用自己', en: 'You cannot disable yourself' },
  CannotResetOwnPassword: { zh: '自己的密码请在个人中心凭原密码修改', en: 'Change your own password in your profile, with your current password' },
} as const satisfies Record<string, CatalogueText>;
