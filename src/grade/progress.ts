/**
 * How far a class's grade has got, and about how long it still needs: the figures a teacher's progress line
 * shows (src/grade/reporters/terminal.ts words them). Pure: the times are given — measured by the CLI, the one
 * place that reads the wall clock — so an estimate is a function of them and a test can fix them.
 */

export interface ClassProgress {
  /** Submissions in the class. */
  total: number;
  /** Submissions graded so far. */
  done: number;
  /** How many are graded at once (the workers). */
  lanes: number;
  /** The wall time each finished submission took, from its start to its end (ms). */
  finishedMs: readonly number[];
  /** How long each submission being graded now has been at it (ms). */
  runningMs: readonly number[];
}

/**
 * About how long until the last submission is graded (ms), or null before the first is (nothing to go by).
 * A submission takes the finished ones' mean; the work left — the submissions not finished, less what the
 * running ones have done already — is shared by the lanes still busy.
 */
export function timeLeftMs(p: ClassProgress): number | null {
  const left = p.total - p.done;
  if (left <= 0) return 0;
  if (p.finishedMs.length === 0) return null;
  const mean = p.finishedMs.reduce((sum, ms) => sum + ms, 0) / p.finishedMs.length;
  const begun = p.runningMs.reduce((sum, ms) => sum + Math.min(ms, mean), 0);
  const work = left * mean - begun;
  return Math.max(0, Math.round(work / Math.max(1, Math.min(p.lanes, left))));
}
