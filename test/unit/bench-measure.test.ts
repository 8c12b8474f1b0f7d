import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countsOf } from '../../bench/instructions.ts';
import { warm } from '../../bench/measure.ts';
import { canPin, readBytesOf, storageReadBytes } from '../../bench/processes.ts';
import { type CoreSpeeds, coreSpeeds, pageTableIsolation, speedLabel } from '../../bench/core-speed.ts';

// What the bench measures besides the load (bench/measure.ts, bench/processes.ts). The warm-up: rounds until
// the server's CPU a request settles; given the CPU of each round, how many rounds run and how many seconds
// it reports. The storage reads: what the page cache did not hold.
const rounds = (costs: number[]) => {
  let ran = 0;
  return { round: async () => costs[Math.min(ran++, costs.length - 1)], ran: () => ran };
};

describe('bench warm-up', () => {
  it('runs until two rounds in a row cost within 5% of each other', async () => {
    // Creates while V8 still compiles them: dearer rounds, then a settled pair.
    const compiling = rounds([1.6e-3, 1.3e-3, 1.1e-3, 1.02e-3, 1.0e-3]);
    expect(await warm(compiling.round, 3)).toBe(15);
    expect(compiling.ran()).toBe(5);
    const settled = rounds([1.2e-4, 1.19e-4]);
    expect(await warm(settled.round, 3)).toBe(6);
    expect(settled.ran()).toBe(2);
  });

  it('stops after ten rounds that never settle, and runs none when told 0 s', async () => {
    const swinging = rounds([1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]);
    expect(await warm(swinging.round, 3)).toBe(30);
    expect(swinging.ran()).toBe(10);
    // A round with no responses costs Infinity a request: never settled, never a division that passes.
    const dead = rounds([Infinity]);
    expect(await warm(dead.round, 2)).toBe(20);
    const none = rounds([1]);
    expect(await warm(none.round, 0)).toBe(0);
    expect(none.ran()).toBe(0);
  });
});

describe('bench storage reads', () => {
  it('takes read_bytes from /proc/<pid>/io, never rchar (which counts what the page cache answered)', () => {
    const io = 'rchar: 98765432\nwchar: 1234\nsyscr: 55\nsyscw: 3\nread_bytes: 38797312\nwrite_bytes: 4096\ncancelled_write_bytes: 0\n';
    expect(readBytesOf(io)).toBe(38_797_312);
    expect(readBytesOf('rchar: 5\n')).toBeNaN();
  });

  it('reads this process\'s own counter, a number of bytes', () => {
    expect(Number.isInteger(storageReadBytes(process.pid))).toBe(true);
  });
});

describe('bench --instructions: a callgrind file read', () => {
  it('takes instructions and last-level misses by the names of its columns', () => {
    const text = 'version: 1\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nfl=x\n1 2\nsummary: 1000 300 200 40 30 20 5 7 11\n';
    expect(countsOf(text)).toEqual({ instructions: 1000, misses: 5 + 7 + 11 });
  });

  it('counts no misses where the cache was not simulated', () => {
    expect(countsOf('events: Ir\ntotals: 4242\n')).toEqual({ instructions: 4242, misses: 0 });
  });
});

describe('bench core speeds', () => {
  it.runIf(canPin)('times the same work on each core named, in µs an operation', () => {
    const speeds = coreSpeeds([0, 1], 100) as CoreSpeeds;
    expect(speeds.json).toHaveLength(2);
    for (const us of speeds.json) expect(us).toBeGreaterThan(0);
    expect(speeds.systemCall).toBeGreaterThan(0);
    expect(speeds.isolation).toBe(pageTableIsolation());
    expect(speedLabel([0, 1], { json: [2.494, 1.5], systemCall: 0.412, isolation: 'no kernel page-table isolation' })).toBe(
      'core 0 2.49 µs, core 1 1.50 µs (a fixed JSON round trip, the median of 3); a system call 0.41 µs on core 0 (fstat), no kernel page-table isolation');
  });

  it('says so where the cores are not pinned, or a core gave no time', () => {
    expect(speedLabel([0, 1], undefined)).toBe('core speeds not measured (cores not pinned)');
    expect(speedLabel([0, 1], { json: [NaN, 1.5], systemCall: NaN, isolation: 'kernel page-table isolation on' })).toBe(
      'core 0 ? µs, core 1 1.50 µs (a fixed JSON round trip, the median of 3); a system call ? µs on core 0 (fstat), kernel page-table isolation on');
  });

  it("reads the kernel's page-table isolation from its Meltdown report", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pti-'));
    const file = join(dir, 'meltdown');
    writeFileSync(file, 'Mitigation: PTI\n');
    expect(pageTableIsolation(file)).toBe('kernel page-table isolation on');
    writeFileSync(file, 'Not affected\n');
    expect(pageTableIsolation(file)).toBe('no kernel page-table isolation');
    expect(pageTableIsolation(join(dir, 'missing'))).toBe('kernel page-table isolation unknown');
    rmSync(dir, { recursive: true });
  });
});
