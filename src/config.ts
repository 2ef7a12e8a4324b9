// Configuration from the environment, validated once at start-up with a clear message for a bad value.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envSchema from 'env-schema';
import { Type, type Static } from 'typebox';
import { ConfigError } from './shared/config-error.js';
import { parseSecretKeys } from './shared/secret-box.js';

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 10 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], { default: 'all' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  WEBHOOK_ALLOW_PRIVATE_URLS: Type.Boolean({ default: false }),
  API_KEY_PEPPER: Type.Optional(Type.String({ minLength: 32 })),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 300 }),
  AUTH_FAILURES_PER_MINUTE: Type.Integer({ minimum: 1, default: 30 }),
  PUBLIC_ORDERS_PER_MINUTE: Type.Integer({ minimum: 1, default: 10 }),
  SCAN_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 120 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({ pattern: '^\\d+(ms|s|m|h|d)?(,\\d+(ms|s|m|h|d)?)*$', default: '5s,5m,30m,2h,5h,10h,10h' }),
  WEBHOOK_RETRY_JITTER: Type.Number({ minimum: 0, maximum: 0.5, default: 0.1 }),
  WEBHOOK_TIMEOUT: Type.String({ pattern: '^\\d+(ms|s|m|h|d)?$', default: '15s' }),
  WEBHOOK_DISABLE_AFTER_FAILURES: Type.Integer({ minimum: 1, default: 10 }),
  WEBHOOK_DISABLE_AFTER: Type.String({ pattern: '^\\d+(ms|s|m|h|d)?$', default: '3d' }),
  WEBHOOK_POLL_INTERVAL: Type.String({ pattern: '^\\d+(ms|s|m|h|d)?$', default: '1s' }),
  // Unset: open, except with NODE_ENV=production, where a public server should not take venues from anyone.
  DASHBOARD_SIGNUP: Type.Optional(Type.Boolean()),
  SIGNUPS_PER_HOUR_PER_ADDRESS: Type.Integer({ minimum: 1, default: 5 }),
  SIGNUPS_PER_HOUR: Type.Integer({ minimum: 1, default: 100 }),
  LINK_USES_PER_MINUTE: Type.Integer({ minimum: 1, default: 20 }),
  INVITATIONS_PER_HOUR: Type.Integer({ minimum: 1, default: 30 }),
  SHUTDOWN_TIMEOUT: Type.String({ pattern: '^\\d+(ms|s|m|h|d)?$', default: '10s' }),
  AUDIT_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 36500, default: 730 }),
  SQUARE_API_URL: Type.String({ pattern: '^https?://', default: 'https://connect.squareup.com' }),
  SQUARE_RECONCILE_INTERVAL: Type.String({ pattern: '^\\d+(ms|s|m|h|d)?$', default: '15m' }),
  SECRET_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  APPLE_PASS_TYPE_ID: Type.Optional(Type.String({ minLength: 1 })),
  APPLE_TEAM_ID: Type.Optional(Type.String({ minLength: 1 })),
  APPLE_PASS_CERT: Type.Optional(Type.String({ minLength: 1 })),
  APPLE_PASS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  APPLE_PASS_KEY_PASSPHRASE: Type.Optional(Type.String({ minLength: 1 })),
  APPLE_WWDR_CERT: Type.Optional(Type.String({ minLength: 1 })),
  APNS_URL: Type.String({ pattern: '^https://', default: 'https://api.push.apple.com' }),
  APNS_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_WALLET_ISSUER_ID: Type.Optional(Type.String({ pattern: '^[0-9]{1,30}$' })),
  GOOGLE_WALLET_SERVICE_ACCOUNT: Type.Optional(Type.String({ minLength: 1 })),
  GOOGLE_WALLET_API_URL: Type.String({ pattern: '^https?://', default: 'https://walletobjects.googleapis.com/walletobjects/v1' }),
  MAIL_FROM: Type.Optional(Type.String({ minLength: 3 })),
  // Behind a reverse proxy: `true` (trust every hop) or the proxies' addresses/CIDRs (or loopback, linklocal,
  // uniquelocal), comma-separated.
  TRUST_PROXY: Type.String({ pattern: '^(true|false|(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+)(,\\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+))*)$', default: 'false' }),
});

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  /** Fastify's trustProxy: which hops' X-Forwarded-For to believe, so per-address limits see clients, not the proxy. */
  trustProxy: boolean | string;
  redisUrl?: string;
  role: Role;
  logLevel: string;
  publicBaseUrl: string;
  webhookAllowPrivateUrls: boolean;
  /** Undefined on PGlite until resolved from the data directory (see resolveApiKeyPepper). */
  apiKeyPepper?: string;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  publicOrdersPerMinute: number;
  /** How long a scan lets the same key apply a check for that card (card_scan_required). */
  scanWindowSeconds: number;
  bodyLimitBytes: number;
  webhooks: WebhookDeliveryConfig;
  /** Whether /dashboard offers sign-up of a new venue and owner (the CLI always can create them). */
  dashboardSignup: boolean;
  /** Dashboard sign-ups allowed in any hour from one client address, and on the whole server (every process). */
  signupLimits: { perAddress: number; total: number };
  /** Checks and uses of sign-up, invitation and reset links from one client address a minute. */
  linkUsesPerMinute: number;
  /** Invitations a chain may make an hour. */
  invitationsPerHour: number;
  /** How long a graceful shutdown may take before the process exits anyway (SIGTERM must always end it). */
  shutdownTimeoutMs: number;
  /** How long audit log entries are kept (D24); the worker deletes older ones, the database refuses younger. */
  auditRetentionDays: number;
  /** Point-of-sale connectors (D26): Square's API (its sandbox, or a stand-in in tests) and how often its reconciliation runs. */
  square: { apiUrl: string; reconcileIntervalMs: number };
  /** Where invitations and password resets are sent from (SMTP_URL); unset: the dashboard shows the links instead. */
  smtpUrl?: string;
  mailFrom: string;
  /** Apple Wallet passes (D23): each setting as given (the PEM files' paths); which are missing is said when a pass is asked for. */
  appleWallet: AppleWalletSettings;
  googleWallet: GoogleWalletSettings;
  /** Keys that seal webhook signing secrets, the first sealing (src/shared/secret-box.ts); empty: the data directory's. */
  secretEncryptionKeys: Buffer[];
}

export interface AppleWalletSettings {
  passTypeId?: string;
  teamId?: string;
  certFile?: string;
  keyFile?: string;
  keyPassphrase?: string;
  wwdrFile?: string;
  /** Where pushes go: Apple's production APNs host unless set. */
  apnsUrl: string;
  /** A CA to trust for APNs besides the system's. */
  apnsCaFile?: string;
}

export interface GoogleWalletSettings {
  issuerId?: string;
  /** Path of the service account's JSON key file. */
  serviceAccountFile?: string;
  apiUrl: string;
}

export interface WebhookDeliveryConfig {
  /** Delay before each retry; its length is the number of retries (D15). */
  retryScheduleMs: number[];
  retryJitter: number;
  timeoutMs: number;
  disableAfterFailures: number;
  disableAfterMs: number;
  pollIntervalMs: number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "5s", "30m", "250ms", "2h", "3d"; a bare number is milliseconds. */
export function parseDuration(text: string): number {
  const [, amount, unit] = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim()) ?? [];
  if (amount === undefined) throw new ConfigError(`Invalid duration "${text}"`);
  return Number(amount) * UNIT_MS[unit ?? 'ms']!;
}

function trustProxyOf(value: string): boolean | string {
  return value === 'true' || value === 'false' ? value === 'true' : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const data = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  let parsed: Static<typeof EnvSchema>;
  try {
    parsed = envSchema<Static<typeof EnvSchema>>({ schema: EnvSchema, data, env: false });
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  if (parsed.DATABASE_URL && !parsed.API_KEY_PEPPER) {
    throw new ConfigError(
      'Invalid configuration: API_KEY_PEPPER (at least 32 characters) is required with DATABASE_URL; ' +
        'every process sharing the database must use the same value.',
    );
  }
  if (parsed.DATABASE_URL && !parsed.SECRET_ENCRYPTION_KEY && env.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration: SECRET_ENCRYPTION_KEY (base64 of 32 bytes: `openssl rand -base64 32`) is required with ' +
        'DATABASE_URL in production; every process sharing the database must use the same value.',
    );
  }
  const publicBaseUrl = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '');
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir: parsed.DATA_DIR,
    databaseUrl: parsed.DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    trustProxy: trustProxyOf(parsed.TRUST_PROXY),
    redisUrl: parsed.REDIS_URL,
    role: parsed.ROLE as Role,
    logLevel: parsed.LOG_LEVEL,
    publicBaseUrl,
    webhookAllowPrivateUrls: parsed.WEBHOOK_ALLOW_PRIVATE_URLS,
    apiKeyPepper: parsed.API_KEY_PEPPER,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: parsed.AUTH_FAILURES_PER_MINUTE,
    publicOrdersPerMinute: parsed.PUBLIC_ORDERS_PER_MINUTE,
    scanWindowSeconds: parsed.SCAN_WINDOW_SECONDS,
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES,
    dashboardSignup: parsed.DASHBOARD_SIGNUP ?? env.NODE_ENV !== 'production',
    signupLimits: { perAddress: parsed.SIGNUPS_PER_HOUR_PER_ADDRESS, total: parsed.SIGNUPS_PER_HOUR },
    linkUsesPerMinute: parsed.LINK_USES_PER_MINUTE,
    invitationsPerHour: parsed.INVITATIONS_PER_HOUR,
    shutdownTimeoutMs: parseDuration(parsed.SHUTDOWN_TIMEOUT),
    auditRetentionDays: parsed.AUDIT_RETENTION_DAYS,
    square: { apiUrl: parsed.SQUARE_API_URL.replace(/\/+$/, ''), reconcileIntervalMs: parseDuration(parsed.SQUARE_RECONCILE_INTERVAL) },
    smtpUrl: parsed.SMTP_URL,
    appleWallet: {
      passTypeId: parsed.APPLE_PASS_TYPE_ID,
      teamId: parsed.APPLE_TEAM_ID,
      certFile: parsed.APPLE_PASS_CERT,
      keyFile: parsed.APPLE_PASS_KEY,
      keyPassphrase: parsed.APPLE_PASS_KEY_PASSPHRASE,
      wwdrFile: parsed.APPLE_WWDR_CERT,
      apnsUrl: parsed.APNS_URL,
      apnsCaFile: parsed.APNS_CA_FILE,
    },
    googleWallet: {
      issuerId: parsed.GOOGLE_WALLET_ISSUER_ID,
      serviceAccountFile: parsed.GOOGLE_WALLET_SERVICE_ACCOUNT,
      apiUrl: parsed.GOOGLE_WALLET_API_URL.replace(/\/+$/, ''),
    },
    mailFrom: parsed.MAIL_FROM ?? `Venue Loyalty <no-reply@${new URL(publicBaseUrl).hostname}>`,
    secretEncryptionKeys: parsed.SECRET_ENCRYPTION_KEY ? parseSecretKeys(parsed.SECRET_ENCRYPTION_KEY) : [],
    webhooks: {
      retryScheduleMs: parsed.WEBHOOK_RETRY_SCHEDULE.split(',').map(parseDuration),
      retryJitter: parsed.WEBHOOK_RETRY_JITTER,
      timeoutMs: parseDuration(parsed.WEBHOOK_TIMEOUT),
      disableAfterFailures: parsed.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterMs: parseDuration(parsed.WEBHOOK_DISABLE_AFTER),
      pollIntervalMs: parseDuration(parsed.WEBHOOK_POLL_INTERVAL),
    },
  };
}

/**
 * The embedded database keeps its pepper beside its data, created on first run, so `npm start` needs no set-up.
 * Production on PostgreSQL passes API_KEY_PEPPER instead (loadConfig insists).
 */
export function resolveApiKeyPepper(config: Config): string {
  if (config.apiKeyPepper) return config.apiKeyPepper;
  const file = path.join(config.dataDir, 'api-key-pepper');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}
