import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entityTag } from '../../src/http/conditional.ts';

const digestOf = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`;

describe('entity tags of recent texts (http/conditional.ts)', () => {
  it('tells apart texts that share the sample the recent tags are found by', () => {
    // 1000 characters: the sample reads the first 64 and those at floor(i * 1000 / 48); 100 is neither.
    const kept = `{"id":1,"text":"${'a'.repeat(975)}"}`.padEnd(1000, ' ');
    const other = `${kept.slice(0, 100)}b${kept.slice(101)}`;
    expect(other.length).toBe(kept.length);
    // Digested twice: from then on its tag is found among the recent ones.
    for (let i = 0; i < 3; i++) expect(entityTag(kept)).toBe(digestOf(kept));
    for (let i = 0; i < 3; i++) expect(entityTag(other)).toBe(digestOf(other));
    expect(entityTag(kept)).toBe(digestOf(kept));
    expect(digestOf(other)).not.toBe(digestOf(kept));
  });

  it('tells apart list pages of ~60 kB remembered whole, built anew for each request', () => {
    const page = (changed: string) => `{"events":[${Array.from({ length: 10 }, (_, i) => `{"id":${i},"description":"${'x'.repeat(6000)}"}`).join(',')}],"total":${changed}}`;
    const first = page('10');
    for (let i = 0; i < 3; i++) expect(entityTag(page('10'))).toBe(digestOf(first)); // equal text, another string each time
    const other = page('11');
    expect(other.length).toBe(first.length);
    for (let i = 0; i < 3; i++) expect(entityTag(other)).toBe(digestOf(other));
    expect(entityTag(page('10'))).toBe(digestOf(first));
  });
});
