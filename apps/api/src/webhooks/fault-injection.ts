import type { VcsWorkerOptions } from '@trackline/domain';

/** Exit code of a drill's deliberate crash (EX_TEMPFAIL), so a test can tell it from a failure. */
export const FAULT_EXIT_CODE = 75;

/**
 * Worker hooks that end the process abruptly, as a kill would: no cleanup, no release of the
 * claim. For crash-recovery drills (`VCS_FAULT_EXIT_AFTER_UNITS`); nothing when unset.
 */
export function vcsFaultHooks(
  exitAfterUnits: number | undefined,
): Pick<VcsWorkerOptions, 'afterClaim' | 'afterUnit' | 'afterChunk'> {
  if (exitAfterUnits === undefined) return {};
  const die = () => {
    console.error('trackline: VCS fault injection: exiting mid-delivery');
    process.exit(FAULT_EXIT_CODE);
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
