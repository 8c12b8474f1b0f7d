import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('runs with no configuration at all on the embedded database', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080, databaseUrl: 'sqlite:./data/cal-events.db', publicUrl: 'http://localhost:8080', timezone: 'UTC',
      timezoneMode: 'event', currency: { symbol: '$', code: 'USD', position: 'prefix' }, maxPerPage: 50, corsOrigins: '*',
      wpJsonPath: true,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', CAL_TIMEZONE: 'Mars/Olympus', CAL_TIMEZONE_MODE: 'moon', DATABASE_URL: 'mysql://x', CAL_MAX_PER_PAGE: '0', CAL_WP_JSON_PATH: 'no', CAL_DB_POOL: '0', CAL_DB_CONNECT_TIMEOUT_MS: 'soon', CAL_DB_STATEMENT_TIMEOUT_MS: '-1' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'CAL_TIMEZONE', 'CAL_TIMEZONE_MODE', 'DATABASE_URL', 'CAL_MAX_PER_PAGE', 'CAL_WP_JSON_PATH', 'CAL_DB_POOL', 'CAL_DB_CONNECT_TIMEOUT_MS', 'CAL_DB_STATEMENT_TIMEOUT_MS']) expect(problems).toContain(name);
  });

  it('reads CORS origins and the public URL', () => {
    const config = loadConfig({ CAL_CORS_ORIGINS: 'https://a.test, https://b.test', CAL_PUBLIC_URL: 'https://events.test/' });
    expect(config.corsOrigins).toEqual(['https://a.test', 'https://b.test']);
    expect(config.publicUrl).toBe('https://events.test');
  });

  it('reads the settings of operations, sync and webhooks, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimit: { reads: 1200, writes: 300, authFailures: 10 }, metrics: true, accessLog: true, timeouts: { headersMs: 10_000, requestMs: 30_000 },
      database: { poolSize: 10, connectTimeoutMs: 10_000, statementTimeoutMs: 30_000 },
      recurrence: { horizonDays: 730, maxOccurrences: 1000 }, changeRetentionDays: 90, webhooks: { allowPrivate: false, retrySeconds: [5, 300, 1800, 7200, 18000, 36000, 36000], pollMs: 1000, timeoutMs: 10_000 },
    });
    const set = loadConfig({ CAL_RATE_LIMIT: 'off', CAL_METRICS: 'off', CAL_ACCESS_LOG: 'off', CAL_WEBHOOK_RETRY_SECONDS: '0.5, 2', CAL_WEBHOOKS_ALLOW_PRIVATE: 'on' });
    expect([set.rateLimit, set.metrics, set.accessLog, set.webhooks.retrySeconds, set.webhooks.allowPrivate]).toEqual([null, false, false, [0.5, 2], true]);
  });

  it('names each bad operations, sync or webhook setting', () => {
    let error: unknown;
    try {
      loadConfig({
        CAL_RATE_LIMIT: 'maybe', CAL_RATE_LIMIT_READS: '0', CAL_METRICS: 'yes', CAL_ACCESS_LOG: 'quiet', CAL_HEADERS_TIMEOUT_MS: '5', CAL_CHANGES_RETENTION_DAYS: '0',
        CAL_WEBHOOK_RETRY_SECONDS: '5,soon', CAL_WEBHOOK_POLL_MS: '1', CAL_WEBHOOK_TIMEOUT_MS: 'x', CAL_WEBHOOKS_ALLOW_PRIVATE: 'yes',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['CAL_RATE_LIMIT ', 'CAL_RATE_LIMIT_READS', 'CAL_METRICS', 'CAL_ACCESS_LOG', 'CAL_HEADERS_TIMEOUT_MS', 'CAL_CHANGES_RETENTION_DAYS',
      'CAL_WEBHOOK_RETRY_SECONDS', 'CAL_WEBHOOK_POLL_MS', 'CAL_WEBHOOK_TIMEOUT_MS', 'CAL_WEBHOOKS_ALLOW_PRIVATE']) {
      expect(problems).toContain(name);
    }
  });

  it('turns the WordPress path off', () => {
    expect(loadConfig({ CAL_WP_JSON_PATH: 'off' }).wpJsonPath).toBe(false);
    expect(loadConfig({ CAL_WP_JSON_PATH: 'on' }).wpJsonPath).toBe(true);
  });
});
