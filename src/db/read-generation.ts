/**
 * How long what this process read may be reused without reading again: SQLite's shared read snapshot
 * (create-db.ts) and the data version (store.ts) are kept until the end of a turn of the event loop, and no
 * longer than the generation they were read in. A generation ends when this process writes, and when the
 * first request of a batch arrives.
 *
 * Why the batch: a request may follow a write another process acknowledged (two services on one database,
 * a client writing to one and reading from the other), so it must be answered from a read begun after it
 * was sent. Requests handed over in one poll of the event loop were all sent before that poll returned,
 * and reads begun while handling them come later: they may share. A read begun before the poll (in a timer:
 * the webhook dispatcher's tick; in a `setImmediate`: a commit group) may be older than a request of the
 * batch, and its turn only ends after the batch: reused, it answered a rename acknowledged by the other
 * process with the old title.
 */
let generation = 0;
let inBatch = false;
const batchEnds = () => {
  inBatch = false;
};

export const readGeneration = (): number => generation;

/** This process wrote: what it read before may be out of date. */
export function wrote(): void {
  generation++;
}

/** Called as a request arrives, before anything handles it (the HTTP server's first `request` listener). */
export function requestArrived(): void {
  if (inBatch) return;
  inBatch = true;
  generation++;
  // The poll phase hands over its requests before the check phase runs this.
  setImmediate(batchEnds);
}
