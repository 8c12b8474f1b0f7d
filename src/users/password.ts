import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An application password like WordPress's: 24 characters, about 143 bits of entropy. */
export function generatePassword(): string {
  let password = '';
  for (let i = 0; i < 24; i++) password += ALPHABET[randomInt(ALPHABET.length)];
  return password;
}

/**
 * Application passwords are random secrets, not memorable words, so a fast hash is safe (as for API tokens)
 * and lets a Bearer token be found by its hash. WordPress shows them in groups of four: spaces are ignored.
 */
export function hashPassword(password: string): string {
  return createHash('sha256').update(password.replace(/\s+/g, '')).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
