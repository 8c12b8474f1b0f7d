import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** How long a set of rules may take to expand before it is refused (a rule that can never match). */
export const EXPANSION_DEADLINE_MS = 1500;

// The worker is plain JavaScript beside this file in the sources; a build runs it from there too.
const workerFile = [new URL('./expand.worker.mjs', import.meta.url), new URL('../../../src/recurrence/expand.worker.mjs', import.meta.url)].find(existsSync);
if (!workerFile) throw new Error('src/recurrence/expand.worker.mjs is missing: recurrence rules cannot be expanded without it');

export interface RuleSet {
  /** Checked RFC 5545 rules without UNTIL, and each one's UNTIL as wall-clock text when it has one. */
  rules: Array<{ text: string; until?: string }>;
  /** The series' start and the last start wanted, wall-clock `YYYY-MM-DD HH:MM:SS`. */
  start: string;
  through: string;
  /** Stop once more than this many starts are found. */
  most: number;
}

export class ExpansionTimeout extends Error {}

let worker: Worker | undefined;
let nextId = 0;
/** The starts found through `through`, and the first start after it (null when the rules end by then). */
export interface RuleStarts {
  starts: string[];
  next: string | null;
}

const waiting = new Map<number, { message: RuleSet & { id: number }; resolve: (found: RuleStarts) => void; reject: (error: Error) => void }>();

function started(): Worker {
  if (worker) return worker;
  const made = new Worker(workerFile as URL);
  made.unref(); // never keeps the process alive
  made.on('message', ({ id, starts, next, error }: { id: number; starts?: string[]; next?: string | null; error?: string }) => {
    const entry = waiting.get(id);
    waiting.delete(id);
    if (error !== undefined) entry?.reject(new Error(error));
    else entry?.resolve({ starts: starts ?? [], next: next ?? null });
  });
  made.on('error', (error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
    if (worker === made) worker = undefined;
  });
  worker = made;
  return made;
}

/**
 * Every start the rules give from `start` through `through` (the series' own start among them), in no
 * particular order. Throws ExpansionTimeout when the rules take longer than the deadline: the worker is
 * ended (and started afresh for the next caller), the caller answers 400.
 */
export function ruleStarts(set: RuleSet, deadlineMs = EXPANSION_DEADLINE_MS): Promise<RuleStarts> {
  const running = started();
  const id = nextId++;
  return new Promise<RuleStarts>((resolve, reject) => {
    const message = { id, ...set };
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new ExpansionTimeout(`the rules took more than ${deadlineMs} ms to expand`));
      // The worker may be stuck on these rules: end it, and give what waited behind them to a new one.
      if (worker === running) {
        worker = undefined;
        void running.terminate();
        for (const entry of waiting.values()) started().postMessage(entry.message);
      }
    }, deadlineMs);
    waiting.set(id, {
      message,
      resolve: (found) => { clearTimeout(timer); resolve(found); },
      reject: (error) => { clearTimeout(timer); reject(error); },
    });
    running.postMessage(message);
  });
}
