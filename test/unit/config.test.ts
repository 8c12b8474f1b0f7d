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
      loadConfig({ PORT: 'eighty', CAL_TIMEZONE: 'Mars/Olympus', CAL_TIMEZONE_MODE: 'moon', DATABASE_URL: 'mysql://x', CAL_MAX_PER_PAGE: '0', CAL_WP_JSON_PATH: 'no' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'CAL_TIMEZONE', 'CAL_TIMEZONE_MODE', 'DATABASE_URL', 'CAL_MAX_PER_PAGE', 'CAL_WP_JSON_PATH']) expect(problems).toContain(name);
  });

  it('reads CORS origins and the public URL', () => {
    const config = loadConfig({ CAL_CORS_ORIGINS: 'https://a.test, https://b.test', CAL_PUBLIC_URL: 'https://events.test/' });
    expect(config.corsOrigins).toEqual(['https://a.test', 'https://b.test']);
    expect(config.publicUrl).toBe('https://events.test');
  });

  it('turns the WordPress path off', () => {
    expect(loadConfig({ CAL_WP_JSON_PATH: 'off' }).wpJsonPath).toBe(false);
    expect(loadConfig({ CAL_WP_JSON_PATH: 'on' }).wpJsonPath).toBe(true);
  });
});
