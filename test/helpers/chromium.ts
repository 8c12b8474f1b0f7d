import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Debian's package: the browser binary itself (/usr/bin/chromium is a shell wrapper around it).
const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/**
 * The path of a real Chromium for the page tests, installed from Debian's packages when it is missing
 * (browser builds that download themselves cannot be fetched here). Fails loudly if it cannot be had:
 * a page test that quietly does not run would count as passing.
 */
export function chromiumPath(): string {
  const found = CANDIDATES.find(existsSync);
  if (found) return found;
  const run = (args: string[]) => execFileSync('apt-get', args, { stdio: 'ignore', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['update']);
  run(['install', '-y', '--no-install-recommends', 'chromium']);
  const installed = CANDIDATES.find(existsSync);
  if (!installed) throw new Error('chromium is not installed and apt-get could not install it');
  return installed;
}
