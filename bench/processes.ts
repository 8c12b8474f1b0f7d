import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';

/**
 * What `--import` loads for a helper process written in TypeScript (the load generator, the ceiling, the fake
 * site): tsx resolved from here, not from the folder the bench was started in (`node bin/bench.mjs` run
 * elsewhere could not find it).
 */
export const TSX = import.meta.resolve('tsx');

/** The server gets core 0 and the load generator core 1, when there are two cores and taskset to say so. */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

export const canPin: boolean = cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** `command args` run on one core (through taskset, which execs it: the pid stays the program's). */
export function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return canPin ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// Services started and not exited yet: an interrupted run stops them (`killServices`), where they outlived it.
const running = new Set<ChildProcess>();
export function killServices(): void {
  for (const child of running) child.kill('SIGKILL');
}

export interface Service {
  child: ChildProcess;
  pid: number;
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` on the server core (behind `wrapper`, a command that runs it: valgrind), output to
 * `logFile`, and waits until `readyPath` answers.
 */
export async function startService(args: string[], env: Record<string, string>, port: number, logFile: string, readyPath: string, wrapper: string[] = []): Promise<Service> {
  const log = openSync(logFile, 'a');
  const [command, argv] = wrapper.length === 0 ? pinned(SERVER_CORE, process.execPath, args) : pinned(SERVER_CORE, wrapper[0], [...wrapper.slice(1), process.execPath, ...args]);
  const child = spawn(command, argv, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', log, log] });
  closeSync(log);
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  // Under valgrind the start alone takes ~20 s.
  const deadline = Date.now() + (wrapper.length === 0 ? 60_000 : 300_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${tail(logFile)}`);
    try {
      const response = await fetch(`${url}${readyPath}`);
      await response.arrayBuffer();
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${args.join(' ')} did not answer in time:\n${tail(logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, pid: child.pid as number, url, logFile, stop };
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** User and system CPU seconds of a /proc `stat` text (its fields 14 and 15). */
function statCpu(stat: string): { user: number; system: number } {
  // The command name may hold spaces: count fields from after its closing parenthesis (field 3 on).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / ticksPerSecond(), system: Number(fields[12]) / ticksPerSecond() };
}

/** User + system CPU seconds the process has used, all its threads. */
export function cpuSeconds(pid: number): number {
  const { user, system } = statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return user + system;
}

/**
 * The process's CPU seconds, all threads (`total`), of which in the kernel (`system`: its reads of the
 * database file, its socket writes) and on the main thread (`main`: where requests are answered; the rest is
 * V8's collector and compiler and the WAL checkpointer).
 */
export function cpuSplit(pid: number): { total: number; system: number; main: number } {
  const all = statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  const main = statCpu(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
  return { total: all.user + all.system, system: all.system, main: main.user + main.system };
}

/**
 * Bytes the process has had read from storage (`read_bytes` of /proc/<pid>/io: what the page cache did not
 * hold), or NaN where that file cannot be read.
 */
export function storageReadBytes(pid: number): number {
  try {
    return readBytesOf(readFileSync(`/proc/${pid}/io`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** `read_bytes` of a /proc/<pid>/io text (not `rchar`, which counts reads the page cache answered too). */
export function readBytesOf(io: string): number {
  const match = /^read_bytes:\s+(\d+)$/m.exec(io);
  return match ? Number(match[1]) : NaN;
}

/** A `Vm…:` line of /proc/<pid>/status, in MB. */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Samples the resident set every `everyMs` until stopped; returns the peak seen, in MB. */
export function sampleRss(pid: number, everyMs = 200): () => number {
  let peak = memoryMb(pid, 'VmRSS');
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryMb(pid, 'VmRSS'));
    } catch {
      // the process ended; the caller reports that
    }
  }, everyMs);
  // A run that fails before it is stopped must not be kept alive by it.
  timer.unref();
  return () => {
    clearInterval(timer);
    return peak;
  };
}
