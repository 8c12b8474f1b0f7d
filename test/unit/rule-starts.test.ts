import { describe, expect, it } from 'vitest';
import { ExpansionTimeout, type RuleSet, ruleStarts } from '../../src/recurrence/rule-starts.ts';
import { runModule } from '../helpers/run-module.ts';

// The worker that expands recurrence rules, timed as a caller meets it: a set is refused only for its own time.
const set = (text: string, through: string, most = 1_000_000): RuleSet => ({ rules: [{ text }], start: '2027-01-01 00:00:00', through, most });
const QUICK = set('FREQ=YEARLY;COUNT=2', '2030-01-01 00:00:00');
const BUSY = set('FREQ=MINUTELY', '2027-01-03 00:00:00'); // 2,881 starts: some milliseconds of work
const NEVER = set('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', '2030-01-01 00:00:00'); // rrule walks to 9999

describe('rule starts', () => {
  it('times a set from when the worker can begin it: sets asked at once, four deadlines of work in all, are all expanded', async () => {
    await ruleStarts(BUSY); // the worker loaded, its code compiled
    const began = performance.now();
    expect((await ruleStarts(BUSY)).starts).toHaveLength(2_881);
    const one = performance.now() - began;
    // Each set a tenth of its deadline at most; as many as make four deadlines, so the last waits three.
    const deadline = Math.max(300, 10 * one);
    const found = await Promise.allSettled(Array.from({ length: Math.ceil((4 * deadline) / one) }, () => ruleStarts(BUSY, deadline)));
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

  it('keeps a process alive while it waits for an answer, and not once it has it', async () => {
    // A process whose only work left is an expansion, asked of a worker still loading, then another of the
    // worker idle: it prints both answers, then ends by itself (before, the worker's listener held it open for
    // ever after its first answer).
    const script = `const { ruleStarts } = await import(${JSON.stringify(new URL('../../src/recurrence/rule-starts.ts', import.meta.url).href)});
      const first = await ruleStarts(${JSON.stringify(QUICK)});
      const second = await ruleStarts(${JSON.stringify(QUICK)});
      console.log(JSON.stringify([first.starts, second.starts]));`;
    const stdout = await runModule(script);
    expect(JSON.parse(stdout)).toEqual([1, 2].map(() => ['2027-01-01 00:00:00', '2028-01-01 00:00:00']));
  }, 40_000);

  it('refuses a set that runs past its deadline, ends the worker, and expands what waited behind it in a new one', async () => {
    await ruleStarts(QUICK);
    const began = Date.now();
    const [never, after] = await Promise.allSettled([ruleStarts(NEVER, 300), ruleStarts(QUICK, 300)]);
    expect(never).toMatchObject({ status: 'rejected', reason: expect.any(ExpansionTimeout) });
    expect(after).toEqual({ status: 'fulfilled', value: { starts: ['2027-01-01 00:00:00', '2028-01-01 00:00:00'], next: null } });
    expect(Date.now() - began).toBeGreaterThanOrEqual(300);
  });
});
