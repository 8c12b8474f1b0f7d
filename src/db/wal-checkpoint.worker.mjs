// Copies an SQLite database's write-ahead log back into the database off the main thread, when told to
// (src/db/wal-checkpointer.ts). Plain JavaScript, so it runs as it is from the sources and from the build.
// A PASSIVE checkpoint never waits for a reader or a writer: it copies what it safely can.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const Database = createRequire(import.meta.url)('better-sqlite3');
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');

parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [{ checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ checkpointed });
  } catch (error) {
    // One that cannot run now (the database busy or closing) is asked for again at the next look.
    const busy = error?.code === 'SQLITE_BUSY' || error?.code === 'SQLITE_LOCKED';
    parentPort.postMessage(busy ? { checkpointed: 0 } : { error: String(error?.message ?? error) });
  }
});
