import cliProgress from 'cli-progress';

/** What the import reports as it goes: a total per resource (from the list headers), then each record done. */
export interface Progress {
  total(resource: string, total: number): void;
  tick(resource: string, done: number): void;
  end(resource: string): void;
  stop(): void;
}

export const silentProgress: Progress = { total() {}, tick() {}, end() {}, stop() {} };

/** Bars on a terminal (done/total, rate, time left); plain lines otherwise, so logs stay readable. */
export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? barProgress(stream) : lineProgress(stream);
}

function barProgress(stream: NodeJS.WriteStream): Progress {
  const multi = new cliProgress.MultiBar(
    { stream, format: '{resource} [{bar}] {value}/{total} | {rate}/s | ETA {eta_formatted}', hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, { bar: cliProgress.SingleBar; started: number }>();
  return {
    total(resource, total) {
      const known = bars.get(resource);
      if (known) return known.bar.setTotal(total);
      bars.set(resource, { bar: multi.create(total, 0, { resource: resource.padEnd(10), rate: '0' }), started: Date.now() });
    },
    tick(resource, done) {
      const entry = bars.get(resource);
      if (!entry) return;
      const seconds = Math.max((Date.now() - entry.started) / 1000, 0.001);
      entry.bar.update(done, { rate: Math.round(done / seconds) });
    },
    end(resource) {
      bars.get(resource)?.bar.stop();
    },
    stop: () => multi.stop(),
  };
}

function lineProgress(stream: NodeJS.WriteStream): Progress {
  const state = new Map<string, { total: number; done: number; started: number; lastLine: number }>();
  const line = (resource: string, done: number) => {
    const entry = state.get(resource);
    if (!entry) return;
    const seconds = Math.max((Date.now() - entry.started) / 1000, 0.001);
    stream.write(`${resource}: ${done}/${entry.total} (${Math.round(done / seconds)}/s)\n`);
    entry.lastLine = Date.now();
  };
  return {
    total(resource, total) {
      if (!state.has(resource)) state.set(resource, { total, done: 0, started: Date.now(), lastLine: Date.now() });
    },
    // One line every few seconds at most: a log is not a terminal.
    tick(resource, done) {
      const entry = state.get(resource);
      if (entry) entry.done = done;
      if (entry && Date.now() - entry.lastLine > 5000) line(resource, done);
    },
    end(resource) {
      const entry = state.get(resource);
      if (entry) line(resource, entry.done);
    },
    stop() {},
  };
}
