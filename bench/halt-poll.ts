// How this machine's idle virtual CPUs wait, set for a run and put back after it.
//
// The service and its load generator talk over loopback, each on its own vCPU. When the load generator is
// idle (it is, between answers from a service slower than it), its vCPU halts, and the service's `writev`
// of each answer must wake it: a cross-vCPU interrupt, which a guest pays for with an exit to the hypervisor,
// charged to the service's core (`_raw_spin_unlock_irqrestore` under `sock_def_readable`, ~11% of a cold
// read's samples on a machine whose haltpoll driver polls 0 ns). The ceiling never pays it: its load
// generator is never idle. So the slower the service, the more of that cost it was charged, which is the
// hypervisor's, not the service's (a real client is on another machine). Letting an idle vCPU poll a while
// before it halts (Linux's haltpoll cpuidle driver) wakes it without the interrupt, as an idle core of a
// real machine is woken (mwait). The ceiling is measured under the same setting.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const PARAMETER = '/sys/module/haltpoll/parameters/guest_halt_poll_ns';

export interface IdlePolicy {
  /** What the run measured under, for its report. */
  label: string;
  /** Puts the machine's own setting back (idempotent; an interrupted run calls it too: run.ts). */
  restore(): void;
}

/**
 * Idle vCPUs poll up to `microseconds` before they halt, until `restore`; undefined leaves the machine as it
 * is. Where there is no haltpoll driver, or it cannot be set (not root), the run says so and goes on.
 */
export function pollWhenIdle(microseconds: number | undefined): IdlePolicy {
  if (!existsSync(PARAMETER)) return { label: 'idle vCPUs: no haltpoll driver (left as they are)', restore: () => {} };
  const before = readFileSync(PARAMETER, 'utf8').trim();
  const machines = `idle vCPUs poll ${Number(before) / 1000} µs before halting (the machine's haltpoll setting)`;
  if (microseconds === undefined) return { label: machines, restore: () => {} };
  try {
    writeFileSync(PARAMETER, String(microseconds * 1000));
  } catch (error) {
    return { label: `${machines}: could not set ${microseconds} µs (${(error as Error).message})`, restore: () => {} };
  }
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    writeFileSync(PARAMETER, before);
  };
  return { label: `idle vCPUs poll ${microseconds} µs before halting (haltpoll; the machine's own: ${Number(before) / 1000} µs, put back after)`, restore };
}
