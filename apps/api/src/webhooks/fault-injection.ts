import { writeSync } from 'node:fs';
import type { VcsWorkerOptions } from '@trackline/domain';

/** The line a drill writes before its deliberate crash, so a test can tell it from a failure. */
export const FAULT_LINE = 'trackline: VCS fault injection: killing the process mid-delivery';

/**
 * Worker hooks that end the process abruptly, by a kill: no cleanup, no release of the claim.
 * For crash-recovery drills (`VCS_FAULT_EXIT_AFTER_UNITS`); nothing when unset. A SIGKILL of its
 * own, not `process.exit`: once in CI a drill's `process.exit(75)` ended by a signal instead (which
 * one was not recorded; likely the exit's teardown of the WAL checkpoint thread and its native
 * driver), so the drill looked like a failure. A kill ends the same way every time.
 */
export function vcsFaultHooks(
  exitAfterUnits: number | undefined,
): Pick<VcsWorkerOptions, 'afterClaim' | 'afterUnit' | 'afterChunk'> {
  if (exitAfterUnits === undefined) return {};
  const die = () => {
    // Written synchronously: stderr (a pipe) is not flushed by a killed process.
    writeSync(2, `${FAULT_LINE}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
  if (exitAfterUnits === 0) return { afterClaim: die };
  let units = 0;
  return {
    afterUnit: () => {
      units += 1;
      if (units >= exitAfterUnits) die();
    },
  };
}
