import { foldLines as libraryFold } from 'ical-generator';
import { describe, expect, it } from 'vitest';
import { foldLines } from '../../src/feeds/fold.ts';

// Characters of every UTF-8 length, surrogate pairs (emoji), escapes, and broken pairs.
const ALPHABET = ['a', 'Z', ' ', ',', '\\', ';', 'é', 'ß', '€', '中', '😀', '👩‍💻', '\ud83d', '\ude00', 'ñ', '\u00a0', '\u0300'];

function randomText(seed: number, length: number): string {
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += ALPHABET[state % ALPHABET.length];
  }
  return text;
}

describe('foldLines', () => {
  it('writes exactly what ical-generator writes, for any mix of characters and line lengths', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const lines = [`SUMMARY:${randomText(seed, seed % 200)}`, `DESCRIPTION:${randomText(seed * 7, (seed * 13) % 500)}`, 'END:VEVENT'];
      const text = lines.join('\r\n');
      expect(foldLines(text)).toBe(libraryFold(text));
    }
  });

  it('keeps every line within 75 octets', () => {
    const folded = foldLines(`DESCRIPTION:${'😀é中a'.repeat(200)}`);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });
});
