/**
 * The run as the timeline steps through it: one moment per trace event, each with what was true right after
 * it — the tool's committed rows, how far the runner's event log reached, what the runner held in memory.
 * All read from the run's analysis (src/check/analysis.ts), a pure function of the trace: the tool's rows
 * are the initial inventory with every committed diff applied in order (a change a crash rolled back is
 * never applied), the log is the run's committed log cut at the last event saved so far, and the runner
 * holds what it last saved or read back, nothing while its process is down.
 */
import { analyze, type Analysis } from '../../check/analysis.js';
import type { RunResult } from '../../check/RunResult.js';
import { canonicalJson } from '../../core/canonical.js';
import type { ToolSnapshot } from '../../inventory/snapshot.js';
import type { RunnerState } from '../../runner/state.js';

export interface Moment {
  /** Index of the trace event. */
  index: number;
  /** Index into `dbStates`: the tool's committed rows right after this moment. */
  db: number;
  /** This moment committed a change to the tool's rows (items or ledger). */
  dbChanged: boolean;
  /** The highest event number saved so far: the runner's log as it stood (0: nothing yet). */
  logSeq: number;
  /** The event number this moment saved, if it saved one. */
  savedSeq?: number;
  /** Index into `runnerStates`, or -1 while the process is down (between a crash and the recovery) or holds nothing. */
  runner: number;
}

export interface Timeline {
  moments: Moment[];
  dbStates: ToolSnapshot[];
  runnerStates: RunnerState[];
  /** The analysis the timeline was read from (the check locator reads it too). */
  analysis: Analysis;
}

export function timelineOf(run: RunResult): Timeline {
  const analysis = analyze(run);
  const runnerStates: RunnerState[] = [];
  const runnerIndex = new Map<string, number>();
  const stateIndex = (state: RunnerState) => {
    const key = canonicalJson(state) as string;
    let i = runnerIndex.get(key);
    if (i === undefined) {
      i = runnerStates.push(state) - 1;
      runnerIndex.set(key, i);
    }
    return i;
  };
  // A held state is looked up once, where the runner came to hold it (a save or a recovery).
  let held: { saved: object; index: number } | null = null;
  const heldIndex = (saved: { state: RunnerState }) => (held?.saved === saved ? held.index : (held = { saved, index: stateIndex(saved.state) }).index);
  const moments: Moment[] = analysis.events.map((at) => {
    const runner = at.up && at.saved !== null ? heldIndex(at.saved) : -1;
    const savedSeq = at.event.type === 'saved' ? at.event.seq : undefined;
    return { index: at.index, db: at.rows, dbChanged: at.rowsChanged, logSeq: at.logReach, runner, ...(savedSeq !== undefined ? { savedSeq } : {}) };
  });
  return { moments, dbStates: analysis.rows, runnerStates, analysis };
}
