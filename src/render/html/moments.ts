/**
 * The run as the timeline steps through it: one moment per trace event, each with what was true right after
 * it — the tool's committed rows, how far the runner's event log reached, what the runner held in memory.
 * All derived from the trace alone (pure): the tool's rows are the scenario's initial inventory with every
 * committed `db` diff applied in order (the harness reads the database around every delivery, so the diffs
 * are the whole story; a change inside a transaction that a crash rolled back is never applied), and the
 * log is the run's committed log cut at the last event saved so far.
 */
import type { RunResult } from '../../check/RunResult.js';
import { canonicalJson } from '../../core/canonical.js';
import type { ItemRow, LedgerRow, ToolSnapshot } from '../../inventory/snapshot.js';
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
  /** Index into `runnerStates`, or -1 while the process is down (between a crash and the recovery). */
  runner: number;
}

export interface Timeline {
  moments: Moment[];
  dbStates: ToolSnapshot[];
  runnerStates: RunnerState[];
}

export function initialSnapshot(run: RunResult): ToolSnapshot {
  const items: ItemRow[] = Object.entries(run.scenario.inventory.items)
    .map(([item_id, st]) => ({ item_id, available: st.available, version: st.version }))
    .sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));
  return { items, ledger: [] };
}

export function timelineOf(run: RunResult): Timeline {
  const dbStates: ToolSnapshot[] = [initialSnapshot(run)];
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
  let db = 0;
  let logSeq = 0;
  let runner = -1;
  const moments: Moment[] = run.trace.map((event, index) => {
    let dbChanged = false;
    let savedSeq: number | undefined;
    if (event.type === 'db' && event.committed && !event.ledgerHit) {
      const { stock, ledgerAdded, ledgerRemoved } = event.diff;
      if (stock.length + ledgerAdded.length + ledgerRemoved.length > 0) {
        const before = dbStates[db]!;
        const items = before.items.map((row) => {
          const change = stock.find((s) => s.item === row.item_id);
          return change ? { item_id: row.item_id, available: change.available[1], version: change.version[1] } : row;
        });
        for (const s of stock) if (!items.some((row) => row.item_id === s.item)) items.push({ item_id: s.item, available: s.available[1], version: s.version[1] });
        const removed = new Set(ledgerRemoved.map((row) => row.key));
        const ledger: LedgerRow[] = [...before.ledger.filter((row) => !removed.has(row.key)), ...ledgerAdded];
        db = dbStates.push({ items, ledger }) - 1;
        dbChanged = true;
      }
    } else if (event.type === 'saved') {
      savedSeq = event.seq;
      logSeq = Math.max(logSeq, event.seq);
      runner = stateIndex(event.state);
    } else if (event.type === 'crash') {
      runner = -1;
    } else if (event.type === 'recovered') {
      runner = event.state === null ? -1 : stateIndex(event.state);
    }
    return { index, db, dbChanged, logSeq, runner, ...(savedSeq !== undefined ? { savedSeq } : {}) };
  });
  return { moments, dbStates, runnerStates };
}
