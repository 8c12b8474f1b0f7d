// How much of the database file a scenario finds in memory, and whether the kernel takes idle memory back.
//
// A cold read (uniform over every event) reads one page of stored text from the file; where the page cache
// does not hold it, the read waits for the disk on the service's main thread. On some machines the kernel
// reclaims memory it sees idle whatever is free (DAMON's `pageout` scheme: one seen here reclaimed a database
// file at ~2 MB a second with 22 GB free), so the same build reads cold at a fraction of its speed on a file
// written an hour ago. Each run says which kind of machine it ran on and how much of the file each scenario met
// in memory, so that two runs are not compared across that difference.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const DAMON = '/sys/kernel/mm/damon/admin/kdamonds';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};
const entries = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => /^\d+$/.test(name)) : []);

/**
 * What running DAMON schemes reclaim idle memory ("pageout"): after how long unused and how fast at most, for a
 * run's report; undefined where none runs (no DAMON, or its schemes do something else).
 */
export function idleMemoryReclaim(root = DAMON): string | undefined {
  const found: string[] = [];
  for (const kdamond of entries(root)) {
    if (read(join(root, kdamond, 'state')) !== 'on') continue;
    const contexts = join(root, kdamond, 'contexts');
    for (const context of entries(contexts)) {
      const aggregationUs = Number(read(join(contexts, context, 'monitoring_attrs/intervals/aggr_us')));
      const schemes = join(contexts, context, 'schemes');
      for (const scheme of entries(schemes)) {
        const at = (path: string) => read(join(schemes, scheme, path));
        if (at('action') !== 'pageout') continue;
        // The scheme's least age is counted in aggregation intervals; its quota in bytes per reset interval.
        const idleSeconds = (Number(at('access_pattern/age/min')) * aggregationUs) / 1e6;
        const bytes = Number(at('quotas/bytes'));
        const perMs = Number(at('quotas/reset_interval_ms'));
        const rate = bytes > 0 && perMs > 0 ? `, up to ${Math.round(bytes / 2 ** 20 / (perMs / 1000))} MB a second` : '';
        found.push(`memory idle ${Number.isFinite(idleSeconds) ? `${idleSeconds} s` : 'a while'} reclaimed (DAMON pageout${rate})`);
      }
    }
  }
  return found.length > 0 ? [...new Set(found)].join('; ') : undefined;
}

export interface FileInMemory {
  residentMb: number;
  fileMb: number;
}

/**
 * How much of a file the page cache holds now (`fincore`, util-linux); undefined where it cannot tell (no
 * fincore, no such file).
 */
export function fileInMemory(path: string): FileInMemory | undefined {
  if (!existsSync(path)) return undefined;
  const result = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', path], { encoding: 'utf8' });
  const resident = Number(result.stdout?.trim());
  if (result.status !== 0 || result.stdout?.trim() === '' || !Number.isFinite(resident)) return undefined;
  return { residentMb: resident / 2 ** 20, fileMb: statSync(path).size / 2 ** 20 };
}

/** The SQLite file a database URL of the bench names (`sqlite:<path>`); undefined for PostgreSQL. */
export const sqliteFile = (url: string): string | undefined => (url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : undefined);
