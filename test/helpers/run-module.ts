import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Runs `source` as an ES module in a Node process of its own (TypeScript sources importable through tsx) and
 * gives what it printed. Rejects when it exits other than 0, or has not ended within `timeoutMs`: for what
 * must hold of a whole process, such as that it ends by itself.
 */
export async function runModule(source: string, timeoutMs = 30_000): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cal-module-'));
  try {
    writeFileSync(join(dir, 'main.mjs'), source);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(dir, 'main.mjs')], { timeout: timeoutMs });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
