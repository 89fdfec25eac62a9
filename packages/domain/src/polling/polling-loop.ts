/**
 * How long a worker that keeps to `share` of the time waits after working `workedMs`: the time
 * that makes its work that share of the whole, at most `maxMs`.
 */
export function shareWaitMs(workedMs: number, share: number, maxMs: number): number {
  return Math.max(0, Math.min(maxMs, (workedMs * (1 - share)) / share));
}

export type PollingLoopOptions = {
  /**
   * One round of work: how many rows it took (0: nothing to do now, and the loop waits `pollMs`
   * or a kick). Preceded by a `pause`.
   */
  step: () => Promise<number>;
  /** How often an idle loop looks for work (a kick wakes it at once). */
  pollMs: number;
  logError: (error: unknown) => void;
  /**
   * Whether requests are waiting for or arriving at this process. While it says so, the worker
   * takes at most `share` of the time (default 0.1): after working w ms it waits
   * w × (1 − share) / share ms, each wait at most `maxDeferMs` (default 200) and cut short when
   * the requests stop.
   */
  busy?: (() => boolean) | undefined;
  share?: number | undefined;
  maxDeferMs?: number | undefined;
};

export type PollingLoop = {
  start(): void;
  /** Finishes the step in progress, then stops; resolves when the loop has exited. */
  stop(): Promise<void>;
  /** Wakes an idle loop now (work was just queued in this process). */
  kick(): void;
  /** Runs steps until one finds nothing to do; how many rows they took (tests, benchmarks). */
  runUntilIdle(): Promise<number>;
  /**
   * A turn of the event loop, then (while requests are in flight) a wait in proportion to the
   * slice just worked, so that the worker keeps to its share of the time. Before every step, and
   * wherever a step may give way.
   */
  pause(): Promise<void>;
};

/**
 * The loop of a background worker that polls a durable queue (the VCS deliveries, the
 * notification outbox): steps while they find work, sleeps `pollMs` when one finds none, keeps
 * to its share of the time while requests are busy, and logs a failed step and goes on.
 */
export function createPollingLoop(options: PollingLoopOptions): PollingLoop {
  const { step, pollMs, logError, busy } = options;
  const share = Math.min(1, Math.max(0.001, options.share ?? 0.1));
  const maxDeferMs = options.maxDeferMs ?? 200;
  let running = false;
  let kicked = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  /** When the worker last resumed work: what it did since is its slice. */
  let resumedAt = performance.now();

  async function pause(): Promise<void> {
    const worked = performance.now() - resumedAt;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (busy) {
      const until = Date.now() + shareWaitMs(worked, share, maxDeferMs);
      while (busy() && Date.now() < until && running)
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
    resumedAt = performance.now();
  }

  async function round(): Promise<number> {
    await pause();
    return step();
  }

  async function run() {
    while (running) {
      let worked = false;
      try {
        worked = (await round()) > 0;
      } catch (error) {
        logError(error);
      }
      if (worked || !running) continue;
      if (kicked) {
        kicked = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
      // Idle time is not work: the share counts from here.
      resumedAt = performance.now();
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      resumedAt = performance.now();
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    kick() {
      kicked = true;
      wake?.();
    },
    async runUntilIdle() {
      let taken = 0;
      for (let n = await round(); n > 0; n = await round()) taken += n;
      return taken;
    },
    pause,
  };
}
