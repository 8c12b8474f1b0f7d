import { describe, expect, it } from 'vitest';
import { chunkedLines } from '../../src/http/log-lines.ts';

function destination() {
  const written: string[] = [];
  const calls: string[] = [];
  return {
    written, calls,
    write: (text: string) => written.push(text),
    flush: () => calls.push('flush'),
    flushSync: () => calls.push('flushSync'),
  };
}

describe('log lines handed on in chunks', () => {
  it('holds lines until ~8 kB are there, then hands them on in one write, in order', () => {
    const out = destination();
    const lines = chunkedLines(out);
    const line = (i: number) => `{"n":${i},"msg":"${'x'.repeat(90)}"}\n`;
    for (let i = 0; i < 80; i++) lines.write(line(i));
    // 80 lines of ~100 characters: one chunk of the first 8192 or more characters, the rest still held.
    expect(out.written).toHaveLength(1);
    expect(out.written[0].length).toBeGreaterThanOrEqual(8192);
    expect(out.written[0].length).toBeLessThan(8192 + 110);
    lines.flush();
    expect(out.calls).toEqual(['flush']);
    expect(out.written.join('')).toBe(Array.from({ length: 80 }, (_, i) => line(i)).join(''));
  });

  it('hands on what it holds when flushed synchronously (on close), and nothing when it holds nothing', () => {
    const out = destination();
    const lines = chunkedLines(out);
    lines.flushSync();
    expect(out.written).toEqual([]);
    lines.write('one\n');
    lines.write('two\n');
    lines.flushSync();
    expect(out.written).toEqual(['one\ntwo\n']);
    expect(out.calls).toEqual(['flushSync', 'flushSync']);
  });
});
