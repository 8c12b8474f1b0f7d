import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 key bytes;
 * the signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), sent with the message id
 * and the Unix timestamp in `webhook-id`, `webhook-timestamp` and `webhook-signature`.
 */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export function signatureHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
