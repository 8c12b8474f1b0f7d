import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

// The worker is plain JavaScript beside this file in the sources; a build runs it from there too.
const workerFile = [new URL('./wal-checkpoint.worker.mjs', import.meta.url), new URL('../../../src/db/wal-checkpoint.worker.mjs', import.meta.url)].find(existsSync);
if (!workerFile) throw new Error('src/db/wal-checkpoint.worker.mjs is missing: the SQLite database cannot be checkpointed without it');

export interface CheckpointerOptions {
  /** Frames (pages) waiting in the log that start a checkpoint. */
  frames?: number;
  /** How often the worker looks. */
  intervalMs?: number;
  /** Told each checkpoint's count of frames copied back (the tests watch it). */
  checkpointed?: (frames: number) => void;
  failed?: (error: Error) => void;
}

/**
 * Copies an SQLite database's write-ahead log back into the database from a worker thread with its own
 * connection. SQLite's own checkpoint runs inside the commit that fills the log past `wal_autocheckpoint`:
 * that write and every request behind it wait 50-190 ms while ~40 MB are copied, which made the p99 of event
 * creates. The worker copies a few thousand pages at a time while the main thread goes on; the main
 * connection's checkpoint stays as a backstop and finds almost nothing left to copy. Once everything is
 * copied back, the next write starts the log from its beginning again, so it stays small.
 */
export function startCheckpointer(path: string, options: CheckpointerOptions = {}) {
  const worker = new Worker(workerFile as URL, {
    workerData: { path, frames: options.frames ?? 2000, intervalMs: options.intervalMs ?? 20 },
  });
  worker.unref(); // never keeps the process alive
  worker.on('message', (message: { checkpointed?: number; error?: string }) => {
    if (message.error !== undefined) options.failed?.(new Error(message.error));
    else if (message.checkpointed !== undefined) options.checkpointed?.(message.checkpointed);
  });
  worker.on('error', (error) => options.failed?.(error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    /** Closes the worker's connection first: the main connection, closed last, then removes the log. */
    async stop(): Promise<void> {
      worker.ref(); // a process with nothing else to do would otherwise end before it is told
      worker.postMessage('stop');
      await exited;
    },
  };
}
