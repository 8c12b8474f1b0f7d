import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadResult, LoadSpec } from '../../bench/load.ts';

/** A server that answers every request with `status` and notes the paths it was asked for, in order. */
async function recordingServer(status: number): Promise<{ server: Server; url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url as string);
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

// bench/load.ts, the load worker: a scenario and its ceiling are loaded in turns, a slice each, so that both
// meet the machine as it is in those seconds (bench/measure.ts watches each server between the edges it prints).
describe('bench load worker: targets in turns', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cal-load-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads each target in turn for every slice, goes on with its sequence, and tallies each apart', async () => {
    const [scenario, ceiling] = [await recordingServer(200), await recordingServer(404)];
    try {
      const spec: LoadSpec = {
        connections: 1,
        slices: 2,
        sliceSeconds: 0.5,
        targets: [
          { url: scenario.url, sequence: Array.from({ length: 100_000 }, (_, i) => ({ method: 'GET' as const, path: `/s/${i}` })) },
          { url: ceiling.url, sequence: [{ method: 'GET', path: '/c' }] },
        ],
      };
      const file = join(dir, 'spec.json');
      writeFileSync(file, JSON.stringify(spec));
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/load.ts', file], { timeout: 30_000 });
      const lines = stdout.trim().split('\n');
      expect(lines.slice(0, -1)).toEqual(['start 0', 'stop 0', 'start 1', 'stop 1', 'start 0', 'stop 0', 'start 1', 'stop 1']);

      const [served, bare] = JSON.parse(lines[lines.length - 1]) as LoadResult[];
      // Each target's responses are its own: the scenario's all 200, the ceiling's all 404 (non-2xx).
      expect(served.responses).toBeGreaterThan(0);
      expect(served.statuses).toEqual({ 200: served.responses });
      expect(served.non2xx).toBe(0);
      expect(bare.statuses).toEqual({ 404: bare.responses });
      expect(bare.non2xx).toBe(bare.responses);
      // Per second of its own slices (two of at least 0.5 s each), not of the whole run (four, at least 2 s).
      expect(served.rps).toBeLessThanOrEqual(served.responses / 1.0);
      expect(served.rps).toBeGreaterThan(served.responses / 1.9);
      expect(served.p99).toBeGreaterThanOrEqual(served.p50);

      // The second slice went on where the first stopped: every path once, in order, none asked twice.
      expect(scenario.paths.length).toBeGreaterThanOrEqual(served.responses);
      expect(new Set(scenario.paths).size).toBe(scenario.paths.length);
      expect(scenario.paths).toEqual(scenario.paths.map((_, i) => `/s/${i}`));
      expect(ceiling.paths.every((path) => path === '/c')).toBe(true);
    } finally {
      scenario.server.close();
      ceiling.server.close();
    }
  }, 40_000);
});
