import { describe, expect, it } from 'vitest';
import { ExpansionTimeout, type RuleSet, ruleStarts } from '../../src/recurrence/rule-starts.ts';

// The worker that expands recurrence rules, timed as a caller meets it: a set is refused only for its own time.
const set = (text: string, through: string, most = 1_000_000): RuleSet => ({ rules: [{ text }], start: '2027-01-01 00:00:00', through, most });
const QUICK = set('FREQ=YEARLY;COUNT=2', '2030-01-01 00:00:00');
const BUSY = set('FREQ=MINUTELY', '2027-01-03 00:00:00'); // 2,881 starts: some milliseconds of work
const NEVER = set('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', '2030-01-01 00:00:00'); // rrule walks to 9999

describe('rule starts', () => {
  it('times a set from when the worker can begin it: forty asked at once, four deadlines of work in all, are all expanded', async () => {
    await ruleStarts(QUICK); // the worker loaded
    const began = performance.now();
    expect((await ruleStarts(BUSY)).starts).toHaveLength(2_881);
    const deadline = Math.max(200, 10 * (performance.now() - began));
    const found = await Promise.allSettled(Array.from({ length: 40 }, () => ruleStarts(BUSY, deadline)));
    expect(found.filter((result) => result.status === 'rejected')).toEqual([]);
  });

  it('does not refuse a set the worker answered while this thread was busy past the deadline', async () => {
    await ruleStarts(QUICK);
    const asked = ruleStarts(QUICK, 100);
    // A long synchronous stretch (as a large import's statements make) in a phase of the loop after the one
    // that reads the worker's messages: the next turn runs the expired timer before it reads the answer.
    await new Promise<void>((done) => setImmediate(() => {
      const until = Date.now() + 400;
      while (Date.now() < until);
      done();
    }));
    expect((await asked).starts).toEqual(['2027-01-01 00:00:00', '2028-01-01 00:00:00']);
  });

  it('refuses a set that runs past its deadline, ends the worker, and expands what waited behind it in a new one', async () => {
    await ruleStarts(QUICK);
    const began = Date.now();
    const [never, after] = await Promise.allSettled([ruleStarts(NEVER, 300), ruleStarts(QUICK, 300)]);
    expect(never).toMatchObject({ status: 'rejected', reason: expect.any(ExpansionTimeout) });
    expect(after).toEqual({ status: 'fulfilled', value: { starts: ['2027-01-01 00:00:00', '2028-01-01 00:00:00'], next: null } });
    expect(Date.now() - began).toBeGreaterThanOrEqual(300);
  });
});
