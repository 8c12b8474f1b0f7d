import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAnswerBytes } from '../../src/http/answer-bytes.ts';

// What the Buffers look at of a response: whether it closed.
class Response {
  closed = false;
}
const response = () => new Response() as Response & ServerResponse;
const memoryOf = (bytes: Buffer) => bytes.buffer;

describe('answer bytes in reused Buffers', () => {
  it('holds exactly the text’s bytes', () => {
    const bytes = createAnswerBytes();
    const text = JSON.stringify({ title: 'Jazz night', text: 'x'.repeat(20_000) });
    const buffer = bytes.of(text, response());
    expect(buffer?.toString('utf8')).toBe(text);
    expect(buffer?.length).toBe(text.length);
    // The ends of the size classes: nothing at all, exactly 16 kB, one byte more.
    for (const length of [0, 16_384, 16_385]) expect(bytes.of('a'.repeat(length), response())?.length).toBe(length);
    expect(bytes.made()).toBe(4);
  });

  it('gives a Buffer out again only once the response it went out with gave it back', () => {
    const bytes = createAnswerBytes();
    const first = response();
    const a = bytes.of('{"a":1}', first) as Buffer;
    const b = bytes.of('{"b":2}', response()) as Buffer;
    // Both in flight: neither may be written over by the other.
    expect(memoryOf(b)).not.toBe(memoryOf(a));
    expect([a.toString(), b.toString()]).toEqual(['{"a":1}', '{"b":2}']);
    bytes.release(first);
    bytes.release(first); // a second time changes nothing
    const c = bytes.of('{"c":3}', response()) as Buffer;
    expect(memoryOf(c)).toBe(memoryOf(a));
    expect(c.toString()).toBe('{"c":3}');
    expect(memoryOf(bytes.of('{"d":4}', response()) as Buffer)).not.toBe(memoryOf(c));
    expect(bytes.made()).toBe(3);
  });

  it('keeps Buffers by size: a long answer does not take a short one’s, nor the other way round', () => {
    const bytes = createAnswerBytes();
    const short = response();
    const a = bytes.of('[]', short) as Buffer;
    bytes.release(short);
    const long = 'y'.repeat(100_000);
    const b = bytes.of(long, response()) as Buffer;
    expect(memoryOf(b)).not.toBe(memoryOf(a));
    expect(b.toString()).toBe(long);
  });

  it('keeps at most 4 MB of free Buffers: past that, one given back is let go', () => {
    const bytes = createAnswerBytes();
    const first = Array.from({ length: 300 }, response);
    for (const r of first) bytes.of('{}', r); // 300 Buffers of 16 kB
    for (const r of first) bytes.release(r); // 256 of them kept
    for (const r of Array.from({ length: 300 }, response)) bytes.of('{}', r);
    expect(bytes.made()).toBe(300 + 44);
  });

  it('leaves out what a one-byte copy would get wrong, what is too long to keep, and a closed response', () => {
    const bytes = createAnswerBytes();
    expect(bytes.of('{"name":"Café"}', response())).toBeUndefined();
    expect(bytes.of('{"name":"\u{1F600}"}', response())).toBeUndefined();
    expect(bytes.of('z'.repeat(2_000_000), response())).toBeUndefined();
    const closed = response();
    closed.closed = true;
    expect(bytes.of('{}', closed)).toBeUndefined();
    expect(bytes.made()).toBe(0);
  });
});
