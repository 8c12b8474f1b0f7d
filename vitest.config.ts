import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
    // Most of a test file's time is spent waiting (PostgreSQL, the processes and the browser it starts), so
    // two files at once even on two cores: the PostgreSQL run took 6.4 min instead of 9.4 (Vitest's default
    // is one file at a time there, a core fewer than the machine has).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker's files share their modules: each file importing the app anew took ~1.7 s, 124 of the SQLite
    // run's 635 s of worker time (335 s -> 174 s of wall time without it). So no test mocks a module (a mock
    // would leak into the files after it), and state kept by a module is keyed by what it depends on.
    isolate: false,
  },
});
