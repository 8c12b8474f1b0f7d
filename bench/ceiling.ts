// The ceiling: a bare node:http server answering every request with a JSON body of CEILING_BYTES bytes.
// Nothing can answer faster on this machine with the same body through Node's HTTP stack: each scenario's
// req/s is reported as a share of it. Run as `node --import tsx bench/ceiling.ts` with PORT and CEILING_BYTES.
import { createServer } from 'node:http';

const bytes = Math.max(16, Number(process.env.CEILING_BYTES ?? 1024));
const port = Number(process.env.PORT ?? 0);

// `{"pad":"xxx…"}`: valid JSON of exactly `bytes` bytes, built once as the service's serializer builds its text.
const filler = 'x'.repeat(bytes - '{"pad":""}'.length);
const body = Buffer.from(`{"pad":"${filler}"}`);

const server = createServer((request, response) => {
  // Bodies of writes are read to the end, as the service reads them, before answering.
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    response.end(body);
  });
});
server.keepAliveTimeout = 72_000; // as Fastify's default
server.listen(port, '127.0.0.1', () => process.stdout.write(`ceiling listening on ${port} with ${body.length} bytes\n`));
process.on('SIGTERM', () => process.exit(0));
