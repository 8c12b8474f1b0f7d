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
  },
});
