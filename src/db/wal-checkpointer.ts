import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { Worker } from 'node:worker_threads';

// The worker is plain JavaScript beside this file in the sources; a build runs it from there too.
const workerFile = [new URL('./wal-checkpoint.worker.mjs', import.meta.url), new URL('../../../src/db/wal-checkpoint.worker.mjs', import.meta.url)].find(existsSync);
if (!workerFile) throw new Error('src/db/wal-checkpoint.worker.mjs is missing: the SQLite database cannot be checkpointed without it');

// After a worker failed, how long SQLite's own checkpoint is left to do the copying before another is started.
const RETRY_AFTER_MS = 60_000;

export interface CheckpointerOptions {
  /** Frames (pages) waiting in the log that start a checkpoint. */
  frames?: number;
  /** How often the log is looked at. */
  intervalMs?: number;
  /** How long the worker stays after its last checkpoint: a thread costs ~9 MB of RSS while it lives. */
  idleMs?: number;
  /** Told each checkpoint's count of frames copied back in all (the tests watch it). */
  checkpointed?: (frames: number) => void;
  /** Told when the worker starts (true) and ends (false). */
  working?: (alive: boolean) => void;
  failed?: (error: Error) => void;
}

/**
 * Copies an SQLite database's write-ahead log back into the database from a worker thread with its own
 * connection. SQLite's own checkpoint runs inside the commit that fills the log past `wal_autocheckpoint`:
 * that write and every request behind it waited 50-190 ms while ~40 MB were copied, the p99 of event creates.
 * Here the main thread looks every `intervalMs` at how many pages wait, and once `frames` do, the worker copies
 * them while the main thread goes on; the main connection's checkpoint stays as a backstop and finds little
 * left. Once everything is copied back, the next write starts the log from its beginning again, so it stays
 * small. The worker lives while writes come, and ends after `idleMs` without a checkpoint.
 *
 * How many pages wait is read from the wal-index header at the start of the `-shm` file
 * (https://www.sqlite.org/walformat.html, "The WAL-Index Header": mxFrame, a 32-bit integer at byte 16, and
 * nBackfill at byte 96, in the machine's byte order): a read of 100 bytes with no lock, which only says when
 * to ask.
 */
export function startCheckpointer(path: string, options: CheckpointerOptions = {}) {
  const { frames = 2000, intervalMs = 20, idleMs = 10_000 } = options;
  let shm: number;
  try {
    shm = openSync(`${path}-shm`, 'r');
  } catch (error) {
    // No wal-index to read (not in WAL mode, say): SQLite's own checkpoint does all the copying, as before.
    options.failed?.(error as Error);
    return { stop: async () => {} };
  }
  const header = Buffer.alloc(100);
  const uint32 = endianness() === 'LE' ? (at: number) => header.readUInt32LE(at) : (at: number) => header.readUInt32BE(at);
  const waiting = () => (readSync(shm, header, 0, header.length, 0) < header.length ? 0 : uint32(16) - uint32(96));

  let worker: Worker | undefined;
  let asked = false;
  let lastCheckpoint = 0;
  // A worker that failed (its connection could not open, say) is not started again for a while: one report
  // a minute, not fifty a second, while SQLite's own checkpoint does the copying.
  let failedAt = -Infinity;
  const fail = (error: Error) => {
    failedAt = Date.now();
    options.failed?.(error);
  };
  const start = () => {
    const made = new Worker(workerFile as URL, { workerData: { path } });
    made.on('message', (message: { checkpointed?: number; error?: string }) => {
      asked = false;
      lastCheckpoint = Date.now();
      if (message.error !== undefined) fail(new Error(message.error));
      else options.checkpointed?.(message.checkpointed ?? 0);
    });
    made.on('error', fail);
    made.once('exit', () => {
      if (worker === made) {
        worker = undefined;
        asked = false;
      }
      options.working?.(false);
    });
    // Never keeps the process alive: released after its listeners, as adding one takes the worker back.
    made.unref();
    options.working?.(true);
    return made;
  };
  // Workers told to stop and not ended yet: `stop` waits for them too.
  const ending = new Set<Promise<void>>();
  const end = (leaving: Worker) => {
    const ended = new Promise<void>((resolve) => leaving.once('exit', () => resolve()));
    ending.add(ended);
    void ended.then(() => ending.delete(ended));
    leaving.ref(); // a process with nothing else to do would otherwise end before it is told
    leaving.postMessage('stop');
  };

  const look = () => {
    if (asked || Date.now() - failedAt < RETRY_AFTER_MS) return;
    if (waiting() >= frames) {
      asked = true;
      worker ??= start();
      worker.postMessage('checkpoint');
    } else if (worker && Date.now() - lastCheckpoint > idleMs) {
      end(worker);
      worker = undefined;
    }
  };
  const timer = setInterval(() => {
    try {
      look();
    } catch (error) {
      fail(error as Error); // a timer's exception would end the process
    }
  }, intervalMs).unref();

  return {
    /** Closes the worker's connection first: the main connection, closed last, then removes the log. */
    async stop(): Promise<void> {
      clearInterval(timer);
      if (worker) end(worker);
      worker = undefined;
      await Promise.all(ending);
      closeSync(shm);
    },
  };
}
