import path from 'node:path';
import { SERVER_DIR } from './paths.ts';

/**
 * Every setting of the server, read from the environment in this one place.
 * The README's configuration table lists the same variables.
 */
function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/**
 * TRUST_PROXY: whose X-Forwarded-For the server believes. Unset or "false": nobody's — the client address
 * is the connection's (any client can write the header, so trusting it lets callers choose their IP for
 * rate limits, sessions and the audit log). A number: that many proxy hops in front of the server. A
 * comma-separated list: those proxy addresses or CIDR ranges (e.g. "127.0.0.1,10.0.0.0/8").
 */
function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim() ?? '';
  if (value === '' || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

function bool(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw === '1' || raw.toLowerCase() === 'true';
}

export interface Config {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Unset: the embedded PGlite database in `DATA_DIR/pglite`. */
  databaseUrl?: string;
  /** Unset: counters, codes and the session cache live in this process (run one process only). */
  redisUrl?: string;
  /** Prefix of every Redis key and channel, so several deployments or test runs can share one Redis. */
  redisPrefix: string;
  /** Fastify's trustProxy: false, true, a hop count or proxy addresses / CIDR ranges. */
  trustProxy: boolean | number | string[];
  logLevel: string;
  /** On SIGTERM, how long the health check fails before the process closes, when a balancer checks it (core/lifecycle.ts). */
  shutdownDrainMs: number;
  /** Seed the two demo tenants on start (default: on for the embedded database only). */
  seedDemo: boolean;
  /** Tenants may register themselves from the login page. */
  openRegister: boolean;
  session: { idleMinutes: number; absoluteHours: number };
  login: { captchaAfterFailures: number; lockAfterFailures: number; lockMinutes: number };
  captcha: { imgTtlSeconds: number; smsTtlSeconds: number; smsResendSeconds: number; smsPerPhonePerHour: number; smsPerIpPerHour: number };
  /** Test-only: expose captcha and SMS codes in responses so E2E can complete the flows. Refused in production. */
  exposeCodes: boolean;
  sms: { provider: string };
  /** orphanHours: an upload no record names is removed this long after it was made (core/upload-sweep.ts). */
  upload: { type: string; domain: string; imageMaxMb: number; fileMaxMb: number; excelMaxMb: number; orphanHours: number };
  /**
   * Background jobs (core/background-jobs.ts): how many this process runs at once, and per tenant across all
   * processes; how often an idle runner looks for work (the fallback of PostgreSQL's notifications); how many
   * days a finished job is kept.
   */
  jobs: { concurrency: number; perTenant: number; pollMs: number; retentionDays: number };
  /** Limits of one Excel import (every `{path}/import`). */
  import: { maxRows: number; maxErrors: number; maxUnpackedMb: number; rowsPerBatch: number };
  qiniu: { accessKey: string; secretKey: string; bucket: string; domain: string; uploadUrl: string };
  /**
   * Cloud receipt printing: our account at Feie (its open API's address, user and UKEY) and our application at
   * Yilianyun (its open API's address, client id and secret); unset, printing says it is not configured.
   */
  printers: { feie: { url: string; user: string; ukey: string }; yilianyun: { url: string; clientId: string; clientSecret: string } };
  /** Built web app served at `/` (production / npm start). */
  webDist?: string;
  /**
   * The public system config's defaults, until the platform administrator (a super administrator of
   * tenant `tenantId`) changes them on the base → config screen.
   */
  platform: { tenantId: number; title: string; icon: string; logo: string; shortName: string; icp: string; customerServiceQrCode: string; translateUrl: string; openAppointment: boolean };
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const env = (process.env.NODE_ENV as Config['env']) ?? 'development';
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const config: Config = {
    env: env === 'production' || env === 'test' ? env : 'development',
    port: int('PORT', 8080),
    host: process.env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    redisUrl: process.env.REDIS_URL || undefined,
    redisPrefix: process.env.REDIS_PREFIX ?? 'p8:',
    trustProxy: trustProxy(process.env.TRUST_PROXY),
    logLevel: process.env.LOG_LEVEL ?? 'info',
    shutdownDrainMs: int('SHUTDOWN_DRAIN_MS', 4000),
    seedDemo: bool('SEED_DEMO', !databaseUrl),
    openRegister: bool('OPEN_REGISTER', true),
    session: { idleMinutes: int('SESSION_IDLE_MINUTES', 30), absoluteHours: int('SESSION_ABSOLUTE_HOURS', 12) },
    login: {
      captchaAfterFailures: int('LOGIN_CAPTCHA_AFTER', 3),
      lockAfterFailures: int('LOGIN_LOCK_AFTER', 10),
      lockMinutes: int('LOGIN_LOCK_MINUTES', 15),
    },
    captcha: {
      imgTtlSeconds: int('IMG_CAPTCHA_TTL_SECONDS', 300),
      smsTtlSeconds: int('SMS_CODE_TTL_SECONDS', 300),
      smsResendSeconds: int('SMS_RESEND_SECONDS', 60),
      smsPerPhonePerHour: int('SMS_PER_PHONE_PER_HOUR', 5),
      smsPerIpPerHour: int('SMS_PER_IP_PER_HOUR', 20),
    },
    exposeCodes: bool('EXPOSE_CODES_FOR_TESTS', false),
    sms: { provider: process.env.SMS_PROVIDER ?? 'log' },
    upload: {
      type: process.env.UPLOAD_TYPE ?? 'location',
      domain: process.env.UPLOAD_DOMAIN ?? '',
      imageMaxMb: int('UPLOAD_IMAGE_MAX_MB', 5),
      fileMaxMb: int('UPLOAD_FILE_MAX_MB', 500),
      excelMaxMb: int('UPLOAD_EXCEL_MAX_MB', 200),
      orphanHours: int('UPLOAD_ORPHAN_HOURS', 24),
    },
    jobs: {
      concurrency: Math.max(1, int('JOB_CONCURRENCY', 2)),
      perTenant: Math.max(1, int('JOB_PER_TENANT', 1)),
      pollMs: Math.max(100, int('JOB_POLL_MS', 1000)),
      retentionDays: Math.max(1, int('JOB_RETENTION_DAYS', 7)),
    },
    import: {
      maxRows: int('IMPORT_MAX_ROWS', 100_000),
      maxErrors: int('IMPORT_MAX_ERRORS', 1000),
      maxUnpackedMb: int('IMPORT_MAX_UNPACKED_MB', 256),
      rowsPerBatch: int('IMPORT_ROWS_PER_BATCH', 250),
    },
    qiniu: {
      accessKey: process.env.QINIU_ACCESS_KEY ?? '',
      secretKey: process.env.QINIU_SECRET_KEY ?? '',
      bucket: process.env.QINIU_BUCKET ?? '',
      domain: process.env.QINIU_DOMAIN ?? '',
      uploadUrl: process.env.QINIU_UPLOAD_URL ?? '',
    },
    printers: {
      feie: { url: process.env.FEIE_API_URL ?? 'https://api.feieyun.cn/Api/Open/', user: process.env.FEIE_USER ?? '', ukey: process.env.FEIE_UKEY ?? '' },
      yilianyun: { url: process.env.YLY_API_URL ?? 'https://open-api.10ss.net/', clientId: process.env.YLY_CLIENT_ID ?? '', clientSecret: process.env.YLY_CLIENT_SECRET ?? '' },
    },
    webDist: process.env.WEB_DIST ?? path.resolve(SERVER_DIR, '../web/dist'),
    platform: {
      tenantId: int('PLATFORM_TENANT_ID', 1),
      title: process.env.SYSTEM_TITLE ?? '后台管理系统',
      icon: process.env.SYSTEM_ICON ?? '/favicon.svg',
      logo: process.env.SYSTEM_LOGO ?? '/logo.svg',
      shortName: process.env.SYSTEM_SHORT_NAME ?? 'P8',
      icp: process.env.SYSTEM_ICP ?? '',
      customerServiceQrCode: process.env.CUSTOMER_SERVICE_QR ?? '',
      translateUrl: process.env.TRANSLATE_URL ?? '',
      openAppointment: bool('OPEN_APPOINTMENT', false),
    },
    ...overrides,
  };
  if (config.exposeCodes && config.env === 'production') {
    throw new Error('EXPOSE_CODES_FOR_TESTS is a test-only setting and is refused when NODE_ENV=production');
  }
  return config;
}
