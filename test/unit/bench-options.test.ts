import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OptionsError, parseOptions } from '../../bench/options.ts';

// `npm run bench -- --instructions <n>` (bench/instructions.ts): a count of requests, or a usage error.
describe('bench options: --instructions', () => {
  it('is off unless given, and a whole number of requests when given', () => {
    expect(parseOptions([]).instructions).toBe(0);
    expect(parseOptions(['--instructions', '5000']).instructions).toBe(5000);
    expect(parseOptions(['--instructions', '5_000', '--scenarios', 'single-id-cold']).instructions).toBe(5000);
  });

  it('refuses what is not a count, and the scale run it cannot take part in', () => {
    for (const bad of ['0', '-1', '2.5', 'many', '']) {
      expect(() => parseOptions([`--instructions=${bad}`])).toThrow(OptionsError);
    }
    expect(() => parseOptions(['--instructions', '5000', '--scale'])).toThrow(/cannot be combined with --scale/);
  });
});

// `--halt-poll <µs|off>` (bench/halt-poll.ts): how long idle vCPUs poll during a run, or the machine's setting.
describe('bench options: --halt-poll', () => {
  it('polls 200 µs unless told otherwise, and leaves the machine as it is with "off"', () => {
    expect(parseOptions([]).haltPoll).toBe(200);
    expect(parseOptions(['--halt-poll', '0']).haltPoll).toBe(0);
    expect(parseOptions(['--halt-poll', '500']).haltPoll).toBe(500);
    expect(parseOptions(['--halt-poll', 'off']).haltPoll).toBeUndefined();
  });

  it('refuses what is neither microseconds up to 10 ms nor "off"', () => {
    for (const bad of ['-1', '2.5', 'on', '', '10001']) expect(() => parseOptions([`--halt-poll=${bad}`])).toThrow(OptionsError);
    expect(parseOptions(['--halt-poll', '10000']).haltPoll).toBe(10_000);
  });
});

// `--reuse <dir>` (bench/run.ts): the database a `--keep` run left, measured again instead of a new seed.
describe('bench options: --reuse', () => {
  const kept = mkdtempSync(join(tmpdir(), 'cal-bench-options-'));
  writeFileSync(join(kept, 'bench.db'), '');
  afterAll(() => rmSync(kept, { recursive: true, force: true }));

  it('names a kept folder, and is refused with a database of its own or the scale run', () => {
    expect(parseOptions([]).reuse).toBeUndefined();
    expect(parseOptions(['--reuse', kept]).reuse).toBe(kept);
    expect(() => parseOptions(['--reuse', kept, '--database', 'sqlite:/tmp/x.db'])).toThrow(/cannot be combined with --database or --scale/);
    expect(() => parseOptions(['--reuse', kept, '--scale'])).toThrow(OptionsError);
  });

  it('refuses a folder without a kept database, and an empty one (which would seed into the current folder)', () => {
    expect(() => parseOptions(['--reuse', join(kept, 'missing')])).toThrow(/no bench.db there/);
    expect(() => parseOptions(['--reuse', ''])).toThrow(OptionsError);
    expect(() => parseOptions(['--reuse', ' '])).toThrow(/no bench.db there/);
  });
});
