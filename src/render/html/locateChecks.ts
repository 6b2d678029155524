/**
 * Where a failed check shows on the timeline: the moment a failing invariant first became true of the run,
 * so the page can mark it at that step. The checks themselves (src/check) judge the finished run; this only
 * points at the moment, reading the same trace — the database rows as they were then (moments.ts), the saved
 * states, the requests. A check with no better place (a figure, the end state) points at the end.
 */
import type { RunResult } from '../../check/RunResult.js';
import type { Check } from '../../check/types.js';
import { canonicalJson } from '../../core/canonical.js';
import type { ToolSnapshot } from '../../inventory/snapshot.js';
import type { ToolAction } from '../../runner/state.js';
import type { Timeline } from './moments.js';

type Locator = (run: RunResult, timeline: Timeline) => number | null;

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** Invariant 1 on the rows as they stood: one row per key, stock and versions conserved, receipts ≤ intents. */
function conserved(run: RunResult, db: ToolSnapshot): boolean {
  const keys = new Set<string>();
  for (const row of db.ledger) {
    if (keys.has(row.key)) return false;
    keys.add(row.key);
  }
  for (const row of db.items) {
    const initial = run.scenario.inventory.items[row.item_id];
    if (initial === undefined) continue;
    const mine = db.ledger.filter((l) => l.item_id === row.item_id);
    if (row.available !== initial.available - mine.reduce((sum, l) => sum + l.qty, 0) || row.version !== initial.version + mine.length) return false;
  }
  const intents = run.scenario.script.filter((s) => s.kind === 'tool' && s.name === 'reserve').length;
  return db.ledger.filter((l) => l.task_id === run.scenario.task.id).length <= intents;
}

const LOCATORS: Record<string, Locator> = {
  inv1_one_effect_per_intent: (run, timeline) => timeline.moments.find((m) => m.dbChanged && !conserved(run, timeline.dbStates[m.db]!))?.index ?? null,
  inv2_call_budget: (run) => {
    const max = run.scenario.task.max_calls;
    const i = run.trace.findIndex(
      (e) => (e.type === 'request' && e.by === 'runner' && (e.call ?? 0) > max) || (e.type === 'saved' && e.state.calls > max),
    );
    return i === -1 ? null : i;
  },
  inv3_same_key_same_args: (run) => {
    const first = new Map<number, ToolAction>();
    let persisted: ToolAction | null = null;
    for (const [i, e] of run.trace.entries()) {
      if (e.type === 'saved') {
        persisted = e.state.pending;
        if (e.label === 'attempt_started' && e.state.pending) {
          const was = first.get(e.state.decisions);
          if (was === undefined) first.set(e.state.decisions, e.state.pending);
          else if (!same(was, e.state.pending)) return i;
        }
      } else if (e.type === 'recovered') persisted = e.state?.pending ?? null;
      else if (e.type === 'request' && e.by === 'runner' && e.delivery === undefined && (persisted === null || !same(persisted, e.action))) return i;
    }
    return null;
  },
  inv4_log_rebuilds_state: (run) => lastIndex(run, (e) => e.type === 'saved'),
  inv5_contract_error_changes_nothing: (run) => {
    let refused: Array<{ action: ToolAction; attempt: number }> = [];
    let last: ToolAction | null = null;
    let lastAttempt = 0;
    for (const [i, e] of run.trace.entries()) {
      if (e.type === 'request' && e.by === 'runner') {
        if (refused.some((r) => same(r.action, e.action) && (e.attempt ?? 0) > r.attempt)) return i;
        last = e.action;
        lastAttempt = e.attempt ?? 0;
      }
      if (e.type === 'reply' && !e.outcome.ok && e.outcome.error.class === 'ContractError') {
        if (e.changedData || e.receiptExisted) return i;
        if (e.by === 'runner' && e.delivered && last !== null) refused = [...refused, { action: last, attempt: lastAttempt }];
      }
    }
    return null;
  },
  inv7_run_terminates: (run) => {
    const i = run.trace.findIndex((e) => e.type === 'runner_error');
    return i === -1 ? null : i;
  },
  runner_error: (run) => {
    const i = run.trace.findIndex((e) => e.type === 'runner_error');
    return i === -1 ? null : i;
  },
};

function lastIndex(run: RunResult, test: (e: RunResult['trace'][number]) => boolean): number | null {
  for (let i = run.trace.length - 1; i >= 0; i--) if (test(run.trace[i]!)) return i;
  return null;
}

/** For every failed check, the trace index where the page marks it (the last event when no better place). */
export function locateChecks(run: RunResult, timeline: Timeline): Map<Check, number> {
  const end = Math.max(0, run.trace.length - 1);
  const at = new Map<Check, number>();
  for (const check of run.checks) {
    if (check.passed) continue;
    at.set(check, LOCATORS[check.id]?.(run, timeline) ?? end);
  }
  return at;
}


