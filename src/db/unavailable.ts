/**
 * Whether a database error says the database cannot serve now, not that the request was wrong: its server down,
 * restarting, out of connections or of disk, a connection cut midway, its file locked past the busy timeout or
 * unwritable. The request is answered 503 with Retry-After (http/error-handler.ts): nothing of it was stored,
 * its transaction having failed whole, and the same request may succeed later.
 */
// The network's, as node-postgres passes them on (an AggregateError, one per address tried, carries the code too).
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// PostgreSQL's SQLSTATEs: class 08 (connection exception), 53 (insufficient resources: disk, memory,
// connections), 57P01-57P03 (shut down by an administrator or a crash, cannot connect now), 57014 (a statement
// cancelled: by an administrator, or by a statement_timeout set on the server or the role) and 55P03 (a lock
// not had within the server's lock_timeout): the database declined the work, which may pass when sent again.
const POSTGRES = /^(08...|53...|57P0[1-3]|57014|55P03)$/;
// SQLite's result codes (better-sqlite3's `code`), extended ones included (SQLITE_IOERR_WRITE, SQLITE_BUSY_TIMEOUT…).
const SQLITE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|NOMEM|PROTOCOL)(_|$)/;
// node-postgres's own, which carry no code: a connection that ended, or could not be had in time; a statement
// sent on one that had failed (a transaction's rollback after its connection was lost: Kysely throws that error
// in place of the loss itself).
const POSTGRES_CLIENT = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)/;

export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK.has(code) || POSTGRES.test(code) || SQLITE.test(code))) return true;
  return POSTGRES_CLIENT.test(error.message);
}
