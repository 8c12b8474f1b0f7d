import { IANAZone } from 'luxon';
import { POOL_DEFAULTS } from './db/create-db.ts';

/** The validated, frozen configuration. This module is the only reader of process.env. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL's pool: its connections, and how long a query waits for one (then 503). */
  database: { poolSize: number; connectTimeoutMs: number; statementTimeoutMs: number };
  publicUrl: string;
  timezone: string;
  timezoneMode: 'event' | 'site';
  currency: { symbol: string; code: string; position: 'prefix' | 'postfix' };
  maxPerPage: number;
  locales: string[];
  logLevel: string;
  /** Whether each answered request writes its access line (at `info`): off where a proxy in front logs requests. */
  accessLog: boolean;
  adminPassword: string | undefined;
  corsOrigins: string[] | '*';
  bodyLimit: number;
  /** The most events one iCalendar feed holds (feeds are not paged). */
  feedMaxEvents: number;
  /** The calendar's name on pages and in feeds. */
  siteName: string;
  /** Whether `/wp-json/tribe/events/v1/...` (the reference's path) serves the API too. */
  wpJsonPath: boolean;
  /** Recurring series: open-ended rules are materialized this many days ahead; a series has at most this many occurrences. */
  recurrence: { horizonDays: number; maxOccurrences: number };
  /** Days the change log keeps a change (the sync feed's replay window). */
  changeRetentionDays: number;
  /** Requests a client may make per minute (per user when signed in, else per address); null: no limits. */
  rateLimit: { reads: number; writes: number; authFailures: number } | null;
  /** Whether /metrics answers (Prometheus text format). */
  metrics: boolean;
  /** Milliseconds a client may take to send its headers, and its whole request. */
  timeouts: { headersMs: number; requestMs: number };
  webhooks: {
    /** Whether targets on private or loopback addresses are allowed (tests, a private network). */
    allowPrivate: boolean;
    /** Seconds before each retry of a failed delivery; after the last the delivery fails and its subscription is disabled. */
    retrySeconds: number[];
    /** How often each process looks for deliveries to send. */
    pollMs: number;
    /** How long a target may take to answer. */
    timeoutMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

export const DEFAULT_SQLITE_URL = 'sqlite:./data/cal-events.db';
// Standard Webhooks' suggested schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27 hours in all).
const RETRY_SECONDS = '5,300,1800,7200,18000,36000,36000';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads every setting, collects every problem, and throws them all at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const str = (name: string, fallback: string) => {
    const value = env[name];
    return value === undefined || value === '' ? fallback : value;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name, String(fallback));
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]) => {
    const value = str(name, fallback) as T;
    if (!allowed.includes(value)) problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return value;
  };

  const seconds = (name: string, fallback: string) => {
    const raw = str(name, fallback);
    const values = raw.split(',').map((part) => Number(part.trim()));
    if (values.length === 0 || values.length > 50 || values.some((v) => !Number.isFinite(v) || v < 0 || v > 86_400)) {
      problems.push(`${name} must list seconds (0 to 86400) separated by commas (got "${raw}")`);
      return fallback.split(',').map(Number);
    }
    return values;
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = str('HOST', '0.0.0.0');
  const databaseUrl = str('DATABASE_URL', DEFAULT_SQLITE_URL);
  if (!/^(postgres(ql)?:\/\/|sqlite:)/.test(databaseUrl)) {
    problems.push(`DATABASE_URL must start with postgres:// or sqlite: (got "${databaseUrl}")`);
  }
  const publicUrl = str('CAL_PUBLIC_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  if (!isHttpUrl(publicUrl)) problems.push(`CAL_PUBLIC_URL must be an http(s) URL (got "${publicUrl}")`);
  const timezone = str('CAL_TIMEZONE', 'UTC');
  if (!IANAZone.isValidZone(timezone)) problems.push(`CAL_TIMEZONE must be an IANA time zone (got "${timezone}")`);
  const locales = str('CAL_LOCALES', 'en,fr,de').split(',').map((l) => l.trim()).filter(Boolean);
  const badLocale = locales.find((l) => !/^[a-z]{2}(-[A-Z]{2})?$/.test(l));
  if (badLocale) problems.push(`CAL_LOCALES must list language codes like en,fr,de (got "${badLocale}")`);
  const origins = str('CAL_CORS_ORIGINS', '*');
  // Read (and checked) even when limits are off, so every problem is reported at once.
  const rateBudgets = {
    reads: int('CAL_RATE_LIMIT_READS', 1200, 1, 10_000_000),
    writes: int('CAL_RATE_LIMIT_WRITES', 300, 1, 10_000_000),
    authFailures: int('CAL_RATE_LIMIT_AUTH_FAILURES', 10, 1, 1_000_000),
  };

  const config: Config = {
    port,
    host,
    databaseUrl,
    database: {
      poolSize: int('CAL_DB_POOL', POOL_DEFAULTS.poolSize, 1, 1000),
      connectTimeoutMs: int('CAL_DB_CONNECT_TIMEOUT_MS', POOL_DEFAULTS.connectTimeoutMs, 100, 600_000),
      statementTimeoutMs: int('CAL_DB_STATEMENT_TIMEOUT_MS', POOL_DEFAULTS.statementTimeoutMs, 0, 3_600_000),
    },
    publicUrl,
    timezone,
    timezoneMode: oneOf('CAL_TIMEZONE_MODE', 'event', ['event', 'site'] as const),
    currency: {
      symbol: str('CAL_CURRENCY_SYMBOL', '$'),
      code: str('CAL_CURRENCY_CODE', 'USD'),
      position: oneOf('CAL_CURRENCY_POSITION', 'prefix', ['prefix', 'postfix'] as const),
    },
    maxPerPage: int('CAL_MAX_PER_PAGE', 50, 1, 1000),
    locales,
    logLevel: oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    accessLog: oneOf('CAL_ACCESS_LOG', 'on', ['on', 'off'] as const) === 'on',
    adminPassword: env.CAL_ADMIN_PASSWORD || undefined,
    corsOrigins: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()).filter(Boolean),
    bodyLimit: int('CAL_BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    feedMaxEvents: int('CAL_FEED_MAX_EVENTS', 2000, 1, 20000),
    siteName: str('CAL_SITE_NAME', 'cal-events').trim() || 'cal-events',
    wpJsonPath: oneOf('CAL_WP_JSON_PATH', 'on', ['on', 'off'] as const) === 'on',
    recurrence: {
      horizonDays: int('CAL_RECURRENCE_HORIZON_DAYS', 730, 1, 3650),
      maxOccurrences: int('CAL_RECURRENCE_MAX_OCCURRENCES', 1000, 2, 10_000),
    },
    changeRetentionDays: int('CAL_CHANGES_RETENTION_DAYS', 90, 1, 3650),
    rateLimit: oneOf('CAL_RATE_LIMIT', 'on', ['on', 'off'] as const) === 'on' ? rateBudgets : null,
    metrics: oneOf('CAL_METRICS', 'on', ['on', 'off'] as const) === 'on',
    timeouts: { headersMs: int('CAL_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000), requestMs: int('CAL_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000) },
    webhooks: {
      allowPrivate: oneOf('CAL_WEBHOOKS_ALLOW_PRIVATE', 'off', ['on', 'off'] as const) === 'on',
      retrySeconds: seconds('CAL_WEBHOOK_RETRY_SECONDS', RETRY_SECONDS),
      pollMs: int('CAL_WEBHOOK_POLL_MS', 1000, 10, 60_000),
      timeoutMs: int('CAL_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    },
  };
  if (config.adminPassword !== undefined && config.adminPassword.length < 12) {
    problems.push('CAL_ADMIN_PASSWORD must be at least 12 characters');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
