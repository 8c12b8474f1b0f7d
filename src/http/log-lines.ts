/** What the lines are handed to: pino's destination (sonic-boom). */
interface Destination {
  write(text: string): unknown;
  flush(): void;
  flushSync(): void;
}

// Under sonic-boom's largest single write (16 kB), over its smallest (4 kB, set in app.ts).
const CHUNK_CHARS = 8192;

/**
 * Log lines handed on in chunks of ~8 kB, in the order written. sonic-boom measures the UTF-8 length of its
 * whole pending buffer (a string it appends to, flattened and scanned again) at every write: given one
 * access line a request, that cost ~15k of a single read's ~180k instructions on the main thread (callgrind,
 * LOG_LEVEL=info against warn). Every line of the process goes through here, so none overtakes another; what
 * is held is handed on by `flush` (each second, app.ts), `flushSync` (on close) and at exit, as sonic-boom's
 * own buffer is.
 */
export function chunkedLines(destination: Destination) {
  let lines: string[] = [];
  let chars = 0;
  const handOn = () => {
    if (lines.length === 0) return;
    const chunk = lines.join('');
    lines = [];
    chars = 0;
    destination.write(chunk);
  };
  // pino writes its destination out when the process exits (process.exit included), from a handler added before
  // this one: what is held here is handed on and written then too, as the line saying why it exits.
  process.once('exit', () => {
    try {
      handOn();
      destination.flushSync();
    } catch {
      // Closed already: nothing was held.
    }
  });
  return {
    write(line: string): boolean {
      lines.push(line);
      chars += line.length;
      if (chars >= CHUNK_CHARS) handOn();
      return true;
    },
    flush(): void {
      handOn();
      destination.flush();
    },
    flushSync(): void {
      handOn();
      destination.flushSync();
    },
  };
}
