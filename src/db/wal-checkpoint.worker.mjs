// Copies an SQLite database's write-ahead log back into the database off the main thread
// (src/db/wal-checkpointer.ts). Plain JavaScript, so it runs as it is from the sources and from the build.
//
// Every `intervalMs` it reads how many frames the log holds and how many are copied back already from the
// wal-index header at the start of the `-shm` file (https://www.sqlite.org/walformat.html, "The WAL-Index
// Header": mxFrame, a 32-bit integer at byte 16, and nBackfill at byte 96, both in the machine's byte order).
// A read of a few bytes, with no lock: it only says when to ask. Once `frames` wait, it runs a PASSIVE
// checkpoint, which never waits for a reader or a writer and copies what it safely can.
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

const Database = createRequire(import.meta.url)('better-sqlite3');
const { path, frames, intervalMs } = workerData;

const db = new Database(path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const shm = openSync(`${path}-shm`, 'r');
const header = Buffer.alloc(100);
const uint32 = endianness() === 'LE' ? (at) => header.readUInt32LE(at) : (at) => header.readUInt32BE(at);

const waiting = () => {
  if (readSync(shm, header, 0, header.length, 0) < header.length) return 0;
  return uint32(16) - uint32(96);
};

const timer = setInterval(() => {
  try {
    if (waiting() >= frames) {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ checkpointed: result.checkpointed });
    }
  } catch (error) {
    // A checkpoint that cannot run now (the database busy or closing) is tried again at the next look.
    if (error?.code !== 'SQLITE_BUSY' && error?.code !== 'SQLITE_LOCKED') parentPort.postMessage({ error: String(error?.message ?? error) });
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  closeSync(shm);
  db.close();
  parentPort.close();
});
