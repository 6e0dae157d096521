import { isIP } from 'node:net';

/**
 * Typed, validated configuration read once from the environment.
 * Every default lives here; nothing else in the code base reads process.env.
 */
export interface AppConfig {
  nodeEnv: 'development' | 'test' | 'production';
  port: number;
  /** The address the API port and the workers' health ports bind: loopback unless a deployment opens it up. */
  host: string;
  healthPort: number;
  emailDatabaseUrl: string;
  formsDatabaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  publicBaseUrl: string;
  formsPublicBaseUrl: string;
  /** Where human documentation lives (ApiMetadata links point here). */
  docsBaseUrl: string;
  /** The signed-in web app (credential and access settings). */
  appBaseUrl: string;
  cursorSecret: string;
  encryptionKey: string;
  /** Earlier ENCRYPTION_KEY values, still used to open stored secrets until they are rewrapped under the current one. */
  encryptionKeysRetired: string[];
  logLevel: LogLevel;
  /** The level of the access log's line for a request answered below 500 (a 5xx is always logged at error). */
  accessLogLevel: 'info' | 'debug';
  authCacheTtlMs: number;
  /** How often each replica re-reads the auth change counter in Redis, in case a pub/sub message was lost. */
  authChangeCheckMs: number;
  /** Failed authentications one IP may make per window before 429; 0 turns the limit off. */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  /** How long an unknown, revoked or expired credential is refused from memory without a database lookup. */
  authNegativeCacheTtlMs: number;
  /** Log one in this many 401 responses (1 logs all, 0 none). */
  accessLogUnauthenticatedSample: number;
  /** Requests one credential may make per window; 0 turns the limit off. */
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  shutdownTimeoutMs: number;
  /** HTTP servers: the request head, then the whole request, must arrive within these (else 408); idle sockets close. */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpIdleTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  /** Requests served on one keep-alive connection before it is closed (0: no limit). */
  httpMaxRequestsPerSocket: number;
  /** Open connections one API process accepts; more are dropped at once (0: no limit). */
  httpMaxConnections: number;
  /**
   * Which peers may set X-Forwarded-For (the client IP behind every per-IP limit): a hop count, or a list of
   * addresses, CIDR ranges and the names loopback, linklocal, uniquelocal; `false` trusts no one.
   */
  trustProxy: boolean | number | string;
  /** Bounds every Redis command, so an unreachable Redis is a 503 within this time rather than a hang. */
  redisCommandTimeoutMs: number;
  /** Bounds opening a PostgreSQL connection, for the same reason. */
  databaseConnectTimeoutMs: number;
  /** The deadline of an email plain-pool transaction (EmailSql), past which it is rolled back; 0: none. */
  emailSqlTransactionTimeoutMs: number;
  /** Forms public endpoints: requests per client IP / per form in each window; 0 turns that limit off. */
  formsPublicLimitWindowSeconds: number;
  formsSubmissionsPerIp: number;
  formsSubmissionsPerForm: number;
  formsUploadsPerIp: number;
  formsUploadsPerForm: number;
  formsHostedPagesPerIp: number;
  /** MCP requests answered without a credential (initialize, tools/list, …) per client IP in each window; 0 turns the limit off. */
  mcpPublicRequestsPerIp: number;
  mcpPublicWindowSeconds: number;
  /** Largest draft body (JSON bytes) a draft write accepts. */
  formsMaxDraftBytes: number;
  /** Where uploaded files are stored (local disk), and how long an upload no submission refers to is kept. */
  formsUploadDir: string;
  formsUploadRetentionHours: number;
  /** How long a completed spreadsheet export can be downloaded before the clean-up removes its file. */
  formsExportTtlHours: number;
  /** Subscriber import and export files (uploads, exports): where they live and how large and long-lived they may be. */
  subscriberJobs: SubscriberJobSettings;
  /** Months of email engagement events kept (whole monthly partitions; the email jobs worker drops older ones daily). */
  engagementRetentionMonths: number;
  /**
   * Whether the services may connect to hosts other than loopback: delivery providers (an SMTP host, a provider API),
   * webhook destinations, payment providers' APIs and Amazon SNS. Off except in production, so tests and a default
   * development setup can only ever talk to local servers and fakes.
   */
  allowNonLoopbackHosts: boolean;
  /** Per hosted provider, an API base URL replacing its public one (local fakes in tests). */
  deliveryProviderBaseUrls: Partial<Record<DeliveryProviderWithBaseUrl, string>>;
  /** Bounds each provider request's connect-and-send, then, separately, the wait for its answer. */
  deliveryProviderTimeoutMs: number;
  /** Send worker: the broadcast send pipeline's tuning (see README, Broadcast sending). */
  broadcastSend: BroadcastSendSettings;
  /** Outbound webhooks: destination rules (API and webhook-worker) and the worker's delivery tuning. */
  webhooks: WebhookSettings;
  /** Forms payment providers: API base URLs (local fakes in tests) and the checkout scripts the hosted page loads. */
  payments: PaymentSettings;
}

export interface PaymentSettings {
  razorpayApiBaseUrl: string;
  /** Razorpay Checkout (`checkout.js`), loaded by the hosted page on a payment step. */
  razorpayCheckoutScriptUrl: string;
  stripeApiBaseUrl: string;
  /** Stripe.js, loaded by the hosted page on a payment step. */
  stripeJsUrl: string;
  /** Bounds each request to a payment provider's API. */
  timeoutMs: number;
}

export interface WebhookSettings {
  /** Lets webhook destinations be loopback addresses: on in development, off by default in tests, refused in production. */
  allowLoopback: boolean;
  /** Bounds one delivery attempt: connect, send and the answer. */
  timeoutMs: number;
  /** The retry schedule's unit: retries wait 1, 5, 15, 30, 60, 120, 240, 480, 480 units (with jitter). */
  retryUnitMs: number;
  /** A subscription failing this long without one success is disabled. */
  disableAfterMs: number;
  /** Attempts in flight at once for one subscription, so a slow receiver holds only its own slots. */
  concurrencyPerSubscription: number;
  /** Outbox events fanned out per transaction, and due deliveries claimed per statement. */
  batchSize: number;
  /** How often the worker looks for new events and due retries when it found none last time. */
  pollIntervalMs: number;
  /** Published outbox events (and their deliveries) are deleted this many hours later, once none is still being retried. */
  retentionHours: number;
}

export interface SubscriberJobSettings {
  /** Local-disk directory of the import and export files (email-api writes uploads, email-jobs-worker exports). */
  filesDir: string;
  /** Largest CSV an import upload accepts. */
  importMaxBytes: number;
  /** Rows a worker validates and writes per transaction (and per resume checkpoint). */
  importBatchRows: number;
  /** Import batches written at once, each on its own connection (rows are split among them by email). */
  importWriters: number;
  /** How long an export's file (and its download link) stays available. */
  exportTtlHours: number;
  /** Where the files live: local disk (filesDir) or an S3-compatible bucket. */
  storage: 'local' | 's3';
  s3: SubscriberJobFilesS3Settings;
}

export interface SubscriberJobFilesS3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible store's URL (MinIO, R2, …); null for AWS itself. */
  endpoint: string | null;
  /** Bucket in the path rather than the host name, as most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** Static credentials; null for the AWS SDK's own chain (instance or pod roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Prepended to every key, so one bucket can serve several installs. */
  keyPrefix: string;
}

export interface BroadcastSendSettings {
  /** Deliveries claimed, sent and recorded together. */
  batchSize: number;
  /** Batches one worker process has in flight at once (each on any active run). */
  lanes: number;
  /** Recipients materialised per preparation statement. */
  prepareChunk: number;
  /** A delivery left `sending` longer than this belonged to a worker that died: it becomes `unknown`. */
  sendingLeaseMs: number;
  /** How often each worker looks for new, due, paused, canceling and stuck runs and scheduled broadcasts. */
  pollIntervalMs: number;
  /** First retry delay of a transient failure; doubled per attempt, with jitter. */
  retryBaseMs: number;
  /** A run paused by a provider's throttling that gave no wait resumes after this. */
  throttlePauseMs: number;
}

/** The hosted delivery providers and the variable that overrides each one's API base URL. */
export const DELIVERY_BASE_URL_VARIABLES = {
  'amazon-ses': 'DELIVERY_BASE_URL_AMAZON_SES',
  postmark: 'DELIVERY_BASE_URL_POSTMARK',
  sendgrid: 'DELIVERY_BASE_URL_SENDGRID',
  mailgun: 'DELIVERY_BASE_URL_MAILGUN',
  resend: 'DELIVERY_BASE_URL_RESEND',
  brevo: 'DELIVERY_BASE_URL_BREVO',
} as const;
export type DeliveryProviderWithBaseUrl = keyof typeof DELIVERY_BASE_URL_VARIABLES;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const DEV_SECRET = 'dev-only-secret-change-me-0123456789abcdef';

const PROXY_ENTRY = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/;

/** `true` would believe any client's X-Forwarded-For, which defeats every per-IP limit: it is refused. */
function proxyTrust(raw: string, problems: string[]): boolean | number | string {
  const value = raw.trim();
  if (value === 'false' || value === '') return false;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => PROXY_ENTRY.test(entry))) return entries.join(',');
  problems.push(`TRUST_PROXY must be false, a hop count, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal (got "${raw}")`);
  return false;
}

/** Comma-separated earlier encryption keys, each as long as a current one must be. */
function retiredKeys(raw: string | undefined, problems: string[]): string[] {
  const keys = (raw ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (keys.some((key) => key.length < 32)) problems.push('ENCRYPTION_KEYS_RETIRED must list keys of at least 32 characters, separated by commas');
  return keys;
}

/** An IP address, or a host name the resolver can look up (`localhost`, a container's name). */
function bindAddress(raw: string, problems: string[]): string {
  const value = raw.trim();
  const hostName = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (isIP(value) || hostName.test(value)) return value;
  problems.push(`HOST must be an IP address (127.0.0.1, 0.0.0.0, ::) or a host name (got "${raw}")`);
  return '127.0.0.1';
}

/** Per-deployable defaults (ports) are passed by the caller; everything else is shared. */
export function loadConfig(env: Env = process.env, defaults: { port?: number; healthPort?: number } = {}): AppConfig {
  const problems: string[] = [];
  const str = (name: string, fallback: string) => env[name] ?? fallback;
  const int = (name: string, fallback: number, min = 0, max = 2 ** 31) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, fallback: string, protocols: string[]) => {
    const value = str(name, fallback);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
    } catch {
      problems.push(`${name} must be a URL (got "${value}")`);
    }
    return value;
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const value = str(name, fallback) as T;
    if (!allowed.includes(value)) problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return value;
  };

  const nodeEnv = oneOf('NODE_ENV', 'development', ['development', 'test', 'production'] as const);
  const subscriberJobFilesStorage = (): Pick<SubscriberJobSettings, 'storage' | 's3'> => {
    const storage = oneOf('SUBSCRIBER_JOB_FILES_STORAGE', 'local', ['local', 's3'] as const);
    const bucket = str('SUBSCRIBER_JOB_FILES_S3_BUCKET', '');
    if (storage === 's3' && !bucket) problems.push('SUBSCRIBER_JOB_FILES_S3_BUCKET is required when SUBSCRIBER_JOB_FILES_STORAGE is s3');
    const accessKeyId = str('SUBSCRIBER_JOB_FILES_S3_ACCESS_KEY_ID', '');
    const secretAccessKey = str('SUBSCRIBER_JOB_FILES_S3_SECRET_ACCESS_KEY', '');
    if (!accessKeyId !== !secretAccessKey)
      problems.push('SUBSCRIBER_JOB_FILES_S3_ACCESS_KEY_ID and SUBSCRIBER_JOB_FILES_S3_SECRET_ACCESS_KEY are set together or not at all');
    return {
      storage,
      s3: {
        bucket,
        region: str('SUBSCRIBER_JOB_FILES_S3_REGION', 'us-east-1'),
        endpoint: env.SUBSCRIBER_JOB_FILES_S3_ENDPOINT ? url('SUBSCRIBER_JOB_FILES_S3_ENDPOINT', '', ['http:', 'https:']) : null,
        forcePathStyle: bool('SUBSCRIBER_JOB_FILES_S3_FORCE_PATH_STYLE', false),
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
        keyPrefix: str('SUBSCRIBER_JOB_FILES_S3_KEY_PREFIX', ''),
      },
    };
  };
  const secret = (name: string) => {
    const value = env[name];
    if (value && nodeEnv === 'production' && value === DEV_SECRET) problems.push(`${name} must not be the development default in production`);
    if (value && value.length >= 32) return value;
    if (value) problems.push(`${name} must be at least 32 characters`);
    else if (nodeEnv === 'production') problems.push(`${name} is required in production`);
    return DEV_SECRET;
  };

  const config: AppConfig = {
    nodeEnv,
    port: int('PORT', defaults.port ?? 3000, 0, 65535),
    host: bindAddress(env.HOST || '127.0.0.1', problems),
    healthPort: int('HEALTH_PORT', defaults.healthPort ?? 9100, 0, 65535),
    emailDatabaseUrl: url('EMAIL_DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/email', ['postgresql:', 'postgres:']),
    formsDatabaseUrl: url('FORMS_DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/forms', ['postgresql:', 'postgres:']),
    redisUrl: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    queuePrefix: str('QUEUE_PREFIX', 'pl'),
    publicBaseUrl: url('PUBLIC_BASE_URL', 'http://127.0.0.1:3000', ['http:', 'https:']).replace(/\/+$/, ''),
    formsPublicBaseUrl: url('FORMS_PUBLIC_BASE_URL', 'http://127.0.0.1:3100', ['http:', 'https:']).replace(/\/+$/, ''),
    docsBaseUrl: '',
    appBaseUrl: '',
    cursorSecret: secret('CURSOR_SECRET'),
    encryptionKey: secret('ENCRYPTION_KEY'),
    encryptionKeysRetired: retiredKeys(env.ENCRYPTION_KEYS_RETIRED, problems),
    logLevel: oneOf('LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info', LOG_LEVELS),
    // A developer's terminal is not the place for a line per request; a server's log is.
    accessLogLevel: oneOf('ACCESS_LOG_LEVEL', nodeEnv === 'development' ? 'debug' : 'info', ['info', 'debug'] as const),
    authCacheTtlMs: int('AUTH_CACHE_TTL_MS', 5000, 0, 60_000),
    authChangeCheckMs: int('AUTH_CHANGE_CHECK_MS', 500, 50, 60_000),
    authFailureLimit: int('AUTH_FAILURE_LIMIT', nodeEnv === 'test' ? 0 : 30, 0, 1_000_000),
    authFailureWindowSeconds: int('AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 3600),
    authNegativeCacheTtlMs: int('AUTH_NEGATIVE_CACHE_TTL_MS', 30_000, 0, 600_000),
    accessLogUnauthenticatedSample: int('ACCESS_LOG_401_SAMPLE', 100, 0, 1_000_000),
    rateLimitRequests: int('RATE_LIMIT_REQUESTS', 1200, 0, 10_000_000),
    rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 25_000, 0, 600_000),
    httpHeadersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    httpRequestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
    httpIdleTimeoutMs: int('HTTP_IDLE_TIMEOUT_MS', 120_000, 100, 3_600_000),
    httpKeepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
    httpMaxRequestsPerSocket: int('HTTP_MAX_REQUESTS_PER_SOCKET', 0, 0, 10_000_000),
    httpMaxConnections: int('HTTP_MAX_CONNECTIONS', 4096, 0, 1_000_000),
    trustProxy: proxyTrust(str('TRUST_PROXY', 'loopback'), problems),
    redisCommandTimeoutMs: int('REDIS_COMMAND_TIMEOUT_MS', 2000, 50, 60_000),
    databaseConnectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 5000, 50, 60_000),
    emailSqlTransactionTimeoutMs: int('EMAIL_SQL_TRANSACTION_TIMEOUT_MS', 60_000, 0, 3_600_000),
    formsPublicLimitWindowSeconds: int('FORMS_PUBLIC_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    formsSubmissionsPerIp: int('FORMS_SUBMISSIONS_PER_IP', 30, 0, 10_000_000),
    formsSubmissionsPerForm: int('FORMS_SUBMISSIONS_PER_FORM', 1200, 0, 10_000_000),
    formsUploadsPerIp: int('FORMS_UPLOADS_PER_IP', 30, 0, 10_000_000),
    formsUploadsPerForm: int('FORMS_UPLOADS_PER_FORM', 600, 0, 10_000_000),
    formsHostedPagesPerIp: int('FORMS_HOSTED_PAGES_PER_IP', 600, 0, 10_000_000),
    mcpPublicRequestsPerIp: int('MCP_PUBLIC_REQUESTS_PER_IP', 120, 0, 10_000_000),
    mcpPublicWindowSeconds: int('MCP_PUBLIC_WINDOW_SECONDS', 60, 1, 3600),
    formsMaxDraftBytes: int('FORMS_MAX_DRAFT_BYTES', 256 * 1024, 1024, 1024 * 1024),
    formsUploadDir: str('FORMS_UPLOAD_DIR', '.data/uploads'),
    formsUploadRetentionHours: int('FORMS_UPLOAD_RETENTION_HOURS', 24, 1, 24 * 365),
    formsExportTtlHours: int('FORMS_EXPORT_TTL_HOURS', 24, 1, 24 * 30),
    subscriberJobs: {
      filesDir: str('SUBSCRIBER_JOB_FILES_DIR', '.data/subscriber-jobs'),
      importMaxBytes: int('SUBSCRIBER_IMPORT_MAX_BYTES', 200 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
      importBatchRows: int('SUBSCRIBER_IMPORT_BATCH_ROWS', 5000, 1, 100_000),
      importWriters: int('SUBSCRIBER_IMPORT_WRITERS', 2, 1, 8),
      exportTtlHours: int('SUBSCRIBER_EXPORT_TTL_HOURS', 24, 1, 24 * 30),
      ...subscriberJobFilesStorage(),
    },
    // At least 4, so the 90-day engagement windows always find their events.
    engagementRetentionMonths: int('ENGAGEMENT_RETENTION_MONTHS', 25, 4, 1200),
    allowNonLoopbackHosts: bool('ALLOW_NON_LOOPBACK_HOSTS', nodeEnv === 'production'),
    deliveryProviderBaseUrls: {},
    deliveryProviderTimeoutMs: int('DELIVERY_PROVIDER_TIMEOUT_MS', 15_000, 100, 120_000),
    broadcastSend: {
      batchSize: int('BROADCAST_SEND_BATCH_SIZE', 50, 1, 1000),
      lanes: int('BROADCAST_SEND_LANES', 8, 1, 256),
      prepareChunk: int('BROADCAST_PREPARE_CHUNK', 50_000, 100, 1_000_000),
      sendingLeaseMs: int('BROADCAST_SENDING_LEASE_MS', 300_000, 1000, 86_400_000),
      pollIntervalMs: int('BROADCAST_POLL_INTERVAL_MS', 1000, 50, 60_000),
      retryBaseMs: int('BROADCAST_RETRY_BASE_MS', 30_000, 10, 3_600_000),
      throttlePauseMs: int('BROADCAST_THROTTLE_PAUSE_MS', 60_000, 100, 86_400_000),
    },
    payments: {
      razorpayApiBaseUrl: url('RAZORPAY_API_BASE_URL', 'https://api.razorpay.com', ['http:', 'https:']).replace(/\/+$/, ''),
      razorpayCheckoutScriptUrl: url('RAZORPAY_CHECKOUT_SCRIPT_URL', 'https://checkout.razorpay.com/v1/checkout.js', ['http:', 'https:']),
      stripeApiBaseUrl: url('STRIPE_API_BASE_URL', 'https://api.stripe.com', ['http:', 'https:']).replace(/\/+$/, ''),
      stripeJsUrl: url('STRIPE_JS_URL', 'https://js.stripe.com/v3/', ['http:', 'https:']),
      timeoutMs: int('PAYMENTS_PROVIDER_TIMEOUT_MS', 15_000, 100, 120_000),
    },
    webhooks: {
      allowLoopback: bool('WEBHOOKS_ALLOW_LOOPBACK', nodeEnv === 'development'),
      timeoutMs: int('WEBHOOKS_TIMEOUT_MS', 10_000, 100, 60_000),
      retryUnitMs: int('WEBHOOKS_RETRY_UNIT_MS', 60_000, 1, 3_600_000),
      disableAfterMs: int('WEBHOOKS_DISABLE_AFTER_MS', 5 * 86_400_000, 1, 90 * 86_400_000),
      concurrencyPerSubscription: int('WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION', 16, 1, 256),
      batchSize: int('WEBHOOKS_BATCH_SIZE', 500, 1, 10_000),
      pollIntervalMs: int('WEBHOOKS_POLL_INTERVAL_MS', 200, 10, 60_000),
      retentionHours: int('WEBHOOKS_RETENTION_HOURS', 7 * 24, 1, 24 * 365),
    },
  };
  for (const [provider, name] of Object.entries(DELIVERY_BASE_URL_VARIABLES) as Array<[DeliveryProviderWithBaseUrl, string]>) {
    if (env[name]) config.deliveryProviderBaseUrls[provider] = url(name, '', ['http:', 'https:']).replace(/\/+$/, '');
  }
  config.docsBaseUrl = url('DOCS_BASE_URL', `${config.publicBaseUrl}/docs`, ['http:', 'https:']).replace(/\/+$/, '');
  config.appBaseUrl = url('APP_BASE_URL', config.publicBaseUrl, ['http:', 'https:']).replace(/\/+$/, '');
  if (config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  if (config.broadcastSend.sendingLeaseMs < 2 * config.deliveryProviderTimeoutMs) {
    problems.push('BROADCAST_SENDING_LEASE_MS must be at least twice DELIVERY_PROVIDER_TIMEOUT_MS');
  }
  if (nodeEnv === 'production' && config.webhooks.allowLoopback) problems.push('WEBHOOKS_ALLOW_LOOPBACK must not be on in production');
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(config.queuePrefix)) problems.push('QUEUE_PREFIX must be 1-32 characters of [A-Za-z0-9_-]');
  if (problems.length) throw new ConfigError(problems);
  return config;
}
