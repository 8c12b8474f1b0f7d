import type { Socket } from 'node:net';

// What Node's HTTP parser refuses before any route runs, as the contract's error body: oversized headers
// (431), a client too slow to send its request (408), anything else malformed (400).
const ANSWERS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'rest_headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'rest_request_timeout', 'The request was not received in time.'],
};
const MALFORMED: [number, string, string, string] = [400, 'Bad Request', 'rest_malformed_request', 'The request is not valid HTTP.'];

/** Fastify's `clientErrorHandler`: answers in the contract's shape and closes the connection. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const [status, reason, code, message] = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ code, message, data: { status } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n${body}`,
  );
}
