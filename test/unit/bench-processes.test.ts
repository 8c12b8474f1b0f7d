import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TSX } from '../../bench/processes.ts';

// The bench's helper processes (load generator, ceiling, fake site) are TypeScript run through tsx: they must
// start whatever folder `node bin/bench.mjs` was run from, not only the project's.
describe('bench: helper processes in TypeScript', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cal-bench-tsx-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('run from a folder outside the project', () => {
    const script = join(dir, 'hello.ts');
    writeFileSync(script, "const greeting: string = 'typed';\nprocess.stdout.write(greeting);\n");
    const run = spawnSync(process.execPath, ['--import', TSX, script], { cwd: dir, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('typed');
  });
});
