import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered, or 'none' when it kept the request without answering. */
  answered: number | 'none';
}

/** A webhook target: records every POST and answers the statuses queued in `answers` (then 200); 'none' never answers. */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: Array<number | 'none'> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answered = answers.shift() ?? 200;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      if (answered !== 'none') response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answers,
    /** Waits (polling, up to `ms`) until `done` holds of what was received. */
    async until(done: (received: Received[]) => boolean, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!done(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: not done after ${ms} ms; got ${received.length}: ${received.map((r) => r.body.slice(0, 80)).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
