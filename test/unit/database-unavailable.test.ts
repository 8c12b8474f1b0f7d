import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../../src/db/unavailable.ts';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

// Which database errors are the database's state (503, try again) and which are a request's or our fault.
describe('databaseUnavailable', () => {
  it('knows the network, PostgreSQL and SQLite saying the database cannot serve now', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE']) expect([code, databaseUnavailable(coded(code))]).toEqual([code, true]);
    // PostgreSQL: connection exceptions, insufficient resources, shutdowns.
    for (const code of ['08006', '08001', '53100', '53300', '57P01', '57P02', '57P03', '57014', '55P03']) expect([code, databaseUnavailable(coded(code))]).toEqual([code, true]);
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY', 'SQLITE_CANTOPEN']) {
      expect([code, databaseUnavailable(coded(code))]).toEqual([code, true]);
    }
    expect(databaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(databaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(databaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('no answer from the database within 30000 ms'), { code: 'ETIMEDOUT' }))).toBe(true);
  });

  it('leaves the rest to the error path as they are: conflicts, constraints, syntax, anything else', () => {
    for (const code of ['23505', '23503', '40001', '42601', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_BUSYX', 'ERR_INVALID_ARG_TYPE']) {
      expect([code, databaseUnavailable(coded(code))]).toEqual([code, false]);
    }
    expect(databaseUnavailable(new Error('near "selct": syntax error'))).toBe(false);
    expect(databaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(databaseUnavailable(undefined)).toBe(false);
  });
});
