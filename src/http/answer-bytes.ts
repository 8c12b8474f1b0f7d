import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

// Size classes: powers of two from 16 kB (a record is ~10 kB) to 1 MB (a long list page); a longer text
// is sent as a string.
const SMALLEST = 14;
const LARGEST = 20;
// Free buffers kept, in bytes in all: room for a few hundred records' answers in flight at once, or a few
// dozen list pages', and a bounded part of the process's memory (the RSS bound is 200 MB).
const KEPT_BYTES = 4 * 2 ** 20;

const HELD = Symbol('answer bytes');
type Holding = ServerResponse & { [HELD]?: Buffer };
// The class of a Buffer for `length` bytes: the power of two at or above it, at least the smallest. A kept
// Buffer's own length is a power of two, so it gives its class back.
const classOf = (length: number) => Math.max(SMALLEST, 32 - Math.clz32(Math.max(length, 1) - 1));

/**
 * JSON answers' bytes written into Buffers that are used again once their response is done with them.
 *
 * Sent as a string, an answer's ~10 kB were counted character by character (Content-Length), then copied
 * three times on the main thread: Node prepends the response head (a new string, flattened by a copy), then
 * encodes it as UTF-8 into memory of its own, which the kernel copies from. The first copy writes fresh
 * young-generation memory, out of the CPU's cache. Written here, the bytes are counted in bulk and copied
 * once, into memory an earlier answer used (likely still cached), and the head goes beside them in the same
 * `writev`. A Buffer made anew for each answer was slower still: V8 counts its memory, outside its heap, until
 * a collection finds it unreachable, and past a bound starts full collections for it (conditional.ts).
 */
export function createAnswerBytes() {
  const free: Buffer[][] = [];
  let keptBytes = 0;
  let made = 0;

  return {
    /**
     * The text's bytes, in a Buffer held by `response` until `release`; undefined for a text beyond ASCII
     * (every JSON answer is ASCII, see jsonText) or too long to keep a Buffer for, which is sent as it is.
     */
    of(text: string, response: ServerResponse): Buffer | undefined {
      const length = text.length;
      if (length > 2 ** LARGEST || response.closed) return undefined;
      // Each character beyond ASCII takes more than one byte: equal lengths mean a one-byte copy is exact.
      // (Fastify would have counted them anyway, for Content-Length.)
      if (Buffer.byteLength(text, 'utf8') !== length) return undefined;
      const size = classOf(length);
      let buffer = free[size]?.pop();
      if (buffer !== undefined) keptBytes -= buffer.length;
      else {
        buffer = Buffer.allocUnsafeSlow(2 ** size);
        made++;
      }
      buffer.write(text, 0, length, 'latin1');
      (response as Holding)[HELD] = buffer;
      return buffer.subarray(0, length);
    },

    /**
     * Takes back the Buffer the response's answer was written in, once nothing reads it any more: the
     * response finished (its last write completed) or failed. A response never released just lets it go.
     */
    release(response: ServerResponse): void {
      const buffer = (response as Holding)[HELD];
      if (buffer === undefined) return;
      (response as Holding)[HELD] = undefined;
      if (keptBytes + buffer.length > KEPT_BYTES) return;
      (free[classOf(buffer.length)] ??= []).push(buffer);
      keptBytes += buffer.length;
    },

    /** How many Buffers were ever made: stays small while they are given back. */
    made: () => made,
  };
}

/** The process's answer Buffers (sendJson in conditional.ts), given back by each app's hook below. */
export const answerBytes = createAnswerBytes();

/** Gives each answer's Buffer back when Fastify says its response finished or failed. */
export function registerAnswerBytes(app: FastifyInstance): void {
  app.addHook('onResponse', (_request, reply, done) => {
    answerBytes.release(reply.raw);
    done();
  });
}
