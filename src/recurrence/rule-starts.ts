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

/** The starts found through `through`, and the first start after it (null when the rules end by then). */
export interface RuleStarts {
  starts: string[];
  next: string | null;
}

interface Task {
  message: RuleSet & { id: number };
  deadlineMs: number;
  resolve: (found: RuleStarts) => void;
  reject: (error: Error) => void;
}

// The worker expands what it is sent one set at a time, in order: `queue` holds what it was sent and has not
// answered, the set it is on first. Only that one is timed, from when the worker could begin it: a set
// waiting behind others, or for a worker still loading, is not refused for their time.
const queue: Task[] = [];
let worker: Worker | undefined;
let ready = false;
let timer: NodeJS.Timeout | undefined;
let nextId = 0;

function started(): Worker {
  if (worker) return worker;
  const made = new Worker(workerFile as URL);
  made.on('message', (reply: { ready?: true; id?: number; starts?: string[]; next?: string | null; error?: string }) => {
    if (made !== worker) return; // one ended for taking too long
    if (reply.ready) {
      ready = true;
    } else {
      const at = queue.findIndex((task) => task.message.id === reply.id); // the first: it answers in order
      const [task] = at < 0 ? [] : queue.splice(at, 1);
      if (reply.error !== undefined) task?.reject(new Error(reply.error));
      else task?.resolve({ starts: reply.starts ?? [], next: reply.next ?? null });
    }
    timeHead();
  });
  made.on('error', (error) => {
    if (made !== worker) return;
    worker = undefined;
    for (const task of queue.splice(0)) task.reject(error);
    timeHead();
  });
  made.unref(); // after its listeners (adding one takes it back): kept alive by what waits on it only (timeHead)
  worker = made;
  ready = false;
  return made;
}

/** Starts the clock of the set the worker is on now, if there is one and it can be on it. */
function timeHead(): void {
  clearTimeout(timer);
  timer = undefined;
  // A process waiting only for an answer (a command's last series) stays alive for it; an idle worker keeps none.
  if (queue.length > 0) worker?.ref();
  else worker?.unref();
  const head = queue[0];
  if (!head || !ready) return;
  timer = setTimeout(() => {
    // Timers run before the loop reads the worker's messages: an answer that came while this thread was busy
    // is read first, so that only a set still running is refused.
    setImmediate(() => {
      if (queue[0] !== head) return;
      queue.shift();
      head.reject(new ExpansionTimeout(`the rules took more than ${head.deadlineMs} ms to expand`));
      // The worker may be stuck on these rules: end it, and give what waited behind them (if any) to a new one.
      void worker?.terminate();
      worker = undefined;
      if (queue.length > 0) {
        const running = started();
        for (const task of queue) running.postMessage(task.message);
      }
      timeHead();
    });
  }, head.deadlineMs);
}

/**
 * Every start the rules give from `start` through `through` (the series' own start among them), in no
 * particular order. Throws ExpansionTimeout when the rules take longer than the deadline to expand: the
 * worker is ended (and started afresh for what waits behind them), the caller answers 400.
 */
export function ruleStarts(set: RuleSet, deadlineMs = EXPANSION_DEADLINE_MS): Promise<RuleStarts> {
  const running = started();
  return new Promise<RuleStarts>((resolve, reject) => {
    const task = { message: { id: nextId++, ...set }, deadlineMs, resolve, reject };
    queue.push(task);
    running.postMessage(task.message);
    if (queue.length === 1) timeHead();
  });
}
