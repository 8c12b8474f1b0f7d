import { describe, expect, it } from 'vitest';
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
