#!/usr/bin/env node
// Runs the benchmark's TypeScript directly, as bin/cal-events.mjs runs the service: `npm run bench -- --help`.
import { register } from 'tsx/esm/api';

register();
await import('../bench/run.ts');
