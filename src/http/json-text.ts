/**
 * A value as JSON text the way the reference writes it (PHP's json_encode): every character beyond ASCII
 * escaped as \uXXXX. Any JSON parser reads the same value. The point is speed: Node turns a text that is
 * all ASCII into UTF-8 bytes with a copy, but one "é" anywhere makes it convert every character (measured:
 * ~70 us for a 66 kB list page against ~6 us). Records are made into text once and sent many times.
 */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value);
  if (!BEYOND_ASCII.test(json)) return json;
  // A text with a character beyond U+00FF is held by V8 two bytes a character, and so is what replace()
  // makes of it, ASCII or not: made again from its bytes, it is held one byte a character, as the fast
  // path wants (and every text it is joined to stays one-byte too).
  return Buffer.from(json.replace(EVERY_BEYOND_ASCII, escaped), 'latin1').toString('latin1');
}

const BEYOND_ASCII = /[^\u0000-\u007f]/;
const EVERY_BEYOND_ASCII = /[^\u0000-\u007f]/g;
// Lower-case hex, as PHP writes it; a character beyond U+FFFF is two UTF-16 units, each escaped (valid JSON).
const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
